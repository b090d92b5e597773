import { describe, expect, it } from 'vitest';
import { paid } from '../balance/fixtures.js';
import { apiClient, expectEnvelope } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-20T03:00:00.000Z'));

const { server } = usingTestServer({ clock, backgroundJobs: false });

describe('a refund whose request died before keeping its final answer', () => {
  it('answers 409 in use while its work may still run, then what committed, not 409 forever', async () => {
    const merchant = await server.merchant();
    const api = apiClient(server.url, merchant);
    const paymentId = await paid(api, 20_000);
    const request = { payment_id: paymentId, amount: 5_000 };
    const first = await api.post('/Thai/v1/refunds', request, { headers: { 'Idempotency-Key': 'refund-died-1' } });
    expect(first.status, first.text).toBe(200);

    // As a request leaves it when its database went away after the refund committed: the marker with the first answer.
    const { knex } = server.running.runtime.db;
    const pendingAnswer = JSON.stringify({ ...first.body, status: 'pending' });
    await knex('idempotency_keys')
      .where({ merchant_id: merchant.id, key: 'refund-died-1' })
      .update({ response_status: 409, response_body: pendingAnswer, created_at: clock.now() });

    clock.advance(29_000);
    expectEnvelope(await api.post('/Thai/v1/refunds', request, { headers: { 'Idempotency-Key': 'refund-died-1' } }), 409, 'idempotency_key_in_use');

    clock.advance(1_000);
    const retried = await api.post('/Thai/v1/refunds', request, { headers: { 'Idempotency-Key': 'refund-died-1' } });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(JSON.parse(pendingAnswer));
    const refunds = await api.get(`/Thai/v1/payments/${paymentId}`);
    expect(refunds.body.refunded_amount).toBe(5_000); // refunded once
  });
});
