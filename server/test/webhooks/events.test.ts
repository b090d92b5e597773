import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv, type Subscription } from './fixtures.js';

let all: Subscription;

const paymentKinds = ['payment.pending', 'payment.succeeded', 'payment.failed'];
const metadataJson = '{"order_id":"ORD-9","customer":{"tier":"gold"},"__proto__":"plain data"}';

const { server, api } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();
beforeAll(async () => {
  all = await subscribe(api, receiver, '/all', [...paymentKinds, 'refund.completed', 'refund.failed']);
});

const eventsFor = (path: string, paymentId: string) => receiver.at(path).filter((d) => d.payload?.data?.payment_id === paymentId);
const eventFor = (path: string, paymentId: string, kind: string) =>
  eventually(() => eventsFor(path, paymentId).find((d) => d.payload.event === kind), `${kind} for ${paymentId} at ${path}`);

describe('events delivered to a subscribed webhook', () => {
  it('payment.pending when a QR code creates a payment, with its metadata, signed', async () => {
    const paymentId = await newPayment(api, { metadata: JSON.parse(metadataJson) });
    const delivery = await eventFor('/all', paymentId, 'payment.pending');
    expect(delivery.verified).toBe(true);
    expect(delivery.id).toMatch(/^evt_/);
    expect(Object.keys(delivery.payload).sort()).toEqual(['data', 'event', 'id', 'timestamp']);
    expect(delivery.payload).toMatchObject({
      id: delivery.id,
      event: 'payment.pending',
      data: { payment_id: paymentId, status: 'pending', amount: 25000, currency: 'THB', reference: 'ORDER-42' },
    });
    expect(delivery.payload.data.metadata).toEqual(JSON.parse(metadataJson));
    expect(Object.keys(delivery.payload.data.metadata)).toContain('__proto__');
    expect(new Date(delivery.payload.timestamp).toISOString()).toBe(delivery.payload.timestamp);
  });

  it('payment.succeeded after the bank completes the payment', async () => {
    const paymentId = await newPayment(api, { metadata: { cart: 'C-1' } });
    expect((await api.post(`/Thai/v1/test/payments/${paymentId}/succeed`)).status).toBe(200);
    const delivery = await eventFor('/all', paymentId, 'payment.succeeded');
    expect(delivery.verified).toBe(true);
    expect(delivery.payload.data).toMatchObject({ payment_id: paymentId, status: 'succeeded', metadata: { cart: 'C-1' } });
  });

  it.each([
    ['fail', 'failed'],
    ['expire', 'expired'],
  ])('payment.failed after %s, with data.status %s', async (helper, status) => {
    const paymentId = await newPayment(api, { metadata: { why: helper } });
    expect((await api.post(`/Thai/v1/test/payments/${paymentId}/${helper}`)).status).toBe(200);
    const delivery = await eventFor('/all', paymentId, 'payment.failed');
    expect(delivery.verified).toBe(true);
    expect(delivery.payload.data).toMatchObject({ payment_id: paymentId, status, metadata: { why: helper } });
  });

  it('refund.completed with the refund and the payment metadata', async () => {
    const paymentId = await newPayment(api, { metadata: { refundable: true } });
    await api.post(`/Thai/v1/test/payments/${paymentId}/succeed`);
    const refund = await api.post('/v1/refunds', { payment_id: paymentId, amount: 5000, reason: 'damaged' });
    expect(refund.status).toBe(200);
    const delivery = await eventFor('/all', paymentId, 'refund.completed');
    expect(delivery.verified).toBe(true);
    expect(delivery.payload.data).toMatchObject({
      refund_id: refund.body.refund_id,
      payment_id: paymentId,
      amount: 5000,
      status: 'succeeded',
      reason: 'damaged',
      metadata: { refundable: true },
    });
  });

  it('lists each delivery as delivered after one attempt with the answer status', async () => {
    const paymentId = await newPayment(api);
    const delivery = await eventFor('/all', paymentId, 'payment.pending');
    const listed = await eventually(
      async () => (await deliveriesOf(api, all.webhookId)).find((d) => d.event_id === delivery.id && d.status === 'delivered'),
      'delivered listing',
    );
    expect(listed).toMatchObject({
      webhook_id: all.webhookId,
      event_type: 'payment.pending',
      attempts: 1,
      last_response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(listed.delivery_id).toMatch(/^whd_/);
    expect(listed.delivered_at).not.toBeNull();
  });
});

describe('fan-out and subscriptions', () => {
  it('fans one event out to two webhooks, each signed with its own secret, and skips unsubscribed kinds', async () => {
    const merchant = apiClient(server.url, await server.merchant());
    const first = await subscribe(merchant, receiver, '/fan-a', ['payment.succeeded']);
    const second = await subscribe(merchant, receiver, '/fan-b', ['payment.succeeded', 'payment.pending']);
    expect(first.secret).not.toBe(second.secret);
    const paymentId = await newPayment(merchant);
    await merchant.post(`/Thai/v1/test/payments/${paymentId}/succeed`);
    const a = await eventFor('/fan-a', paymentId, 'payment.succeeded');
    const b = await eventFor('/fan-b', paymentId, 'payment.succeeded');
    expect(a.verified && b.verified).toBe(true);
    expect(a.id).toBe(b.id);
    await eventFor('/fan-b', paymentId, 'payment.pending');
    // By now the dispatcher has worked through the same outbox; /fan-a never subscribed to payment.pending.
    expect(eventsFor('/fan-a', paymentId).map((d) => d.payload.event)).toEqual(['payment.succeeded']);
  });

  it("never sends one merchant's events to another merchant's webhook", async () => {
    const other = apiClient(server.url, await server.merchant());
    await subscribe(other, receiver, '/other-merchant', paymentKinds);
    const paymentId = await newPayment(api);
    await eventFor('/all', paymentId, 'payment.pending');
    const theirs = await newPayment(other);
    await eventFor('/other-merchant', theirs, 'payment.pending');
    expect(eventsFor('/other-merchant', paymentId)).toEqual([]);
  });

  it('verified every delivery it received', () => {
    expect(receiver.deliveries.length).toBeGreaterThan(0);
    expect(receiver.deliveries.filter((d) => !d.verified)).toEqual([]);
  });
});
