import { describe, expect, it } from 'vitest';
import { paid } from '../balance/fixtures.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer({ backgroundJobs: false });

describe("a payment's events, for the dashboard's timeline", () => {
  it("are its own and its refunds', oldest first, from its creation on, and no other payment's", async () => {
    const merchant = await server.merchant();
    const api = apiClient(server.url, merchant);
    const paymentId = await paid(api, 20_000);
    const otherId = await paid(api, 30_000);
    const refund = await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 5_000 });
    expect(refund.status, refund.text).toBe(200);

    const { eventLog, payments } = server.running.runtime.services.uow.repos;
    const payment = (await payments.findById(merchant.id, paymentId))!;
    const events = await eventLog.ofPayment(merchant.id, payment);
    expect(events.map((event) => event.event)).toEqual(['payment.pending', 'payment.succeeded', 'refund.completed']);
    expect(events.every((event) => event.data.payment_id === paymentId)).toBe(true);

    const other = (await payments.findById(merchant.id, otherId))!;
    expect((await eventLog.ofPayment(merchant.id, other)).map((event) => event.event)).toEqual(['payment.pending', 'payment.succeeded']);
    expect(await eventLog.ofPayment('mch_someone_else', payment)).toEqual([]);
  });
});
