import { describe, expect, it } from 'vitest';
import { usingTestServer } from '../support/test-server.js';

const { api } = usingTestServer();

async function paidPayment(amount = 100000): Promise<string> {
  const qr = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
  return qr.body.payment_id as string;
}

describe('refunds', () => {
  it('a partial refund keeps the payment succeeded; refunding the rest makes it refunded', async () => {
    const id = await paidPayment(100000);
    const first = await api.post('/v1/refunds', { payment_id: id, amount: 30000, reason: 'one item returned' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ payment_id: id, amount: 30000, currency: 'THB', status: 'succeeded', reason: 'one item returned' });
    expect(first.body.refund_id).toMatch(/^rfd_/);
    expect((await api.get(`/Thai/v1/payments/${id}`)).body).toMatchObject({ status: 'succeeded', refunded_amount: 30000 });

    const rest = await api.post('/Thai/v1/refunds', { payment_id: id });
    expect(rest.body).toMatchObject({ amount: 70000, reason: null, status: 'succeeded' });
    expect((await api.get(`/Thai/v1/payments/${id}`)).body).toMatchObject({ status: 'refunded', refunded_amount: 100000 });

    const txns = (await api.get('/Thai/v1/transactions?limit=100')).body.transactions.filter((t: { payment_id: string }) => t.payment_id === id);
    expect(txns.map((t: { type: string; status: string; amount: number }) => [t.type, t.status, t.amount]).sort()).toEqual(
      [
        ['payment', 'refunded', 100000],
        ['refund', 'succeeded', -30000],
        ['refund', 'succeeded', -70000],
      ].sort(),
    );

    const fetched = await api.get(`/Thai/v1/refunds/${first.body.refund_id}`);
    expect(fetched.body).toEqual(first.body);
  });

  it.each([
    [0, 'invalid_amount'],
    [-5, 'invalid_amount'],
    [100001, 'invalid_amount'],
  ])('refuses amount %i with 422 %s', async (amount, code) => {
    const id = await paidPayment(100000);
    const res = await api.post('/v1/refunds', { payment_id: id, amount });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(code);
  });

  it('refuses a payment that is not succeeded with 422 payment_not_refundable', async () => {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 5000, currency: 'THB' });
    const res = await api.post('/v1/refunds', { payment_id: qr.body.payment_id });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('payment_not_refundable');
    const refunded = await paidPayment(5000);
    await api.post('/v1/refunds', { payment_id: refunded });
    expect((await api.post('/v1/refunds', { payment_id: refunded })).body.error.code).toBe('payment_not_refundable');
  });

  it('answers 404 for unknown payments and refunds, 400 for a bad body', async () => {
    expect((await api.post('/v1/refunds', { payment_id: 'pay_nope' })).body.error.code).toBe('payment_not_found');
    const missing = await api.get('/Thai/v1/refunds/rfd_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('refund_not_found');
    expect((await api.post('/v1/refunds', { amount: 5 })).status).toBe(400);
    expect((await api.post('/v1/refunds', { payment_id: 'pay_x', amount: 1.5 })).status).toBe(400);
  });

  it('concurrent refunds never refund more than was paid', async () => {
    const id = await paidPayment(10000);
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post('/v1/refunds', { payment_id: id, amount: 3000 })));
    const succeeded = results.filter((r) => r.status === 200);
    expect(succeeded).toHaveLength(3);
    expect((await api.get(`/Thai/v1/payments/${id}`)).body.refunded_amount).toBe(9000);
  });
});
