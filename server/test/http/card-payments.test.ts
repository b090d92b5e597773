import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

const { server, api } = usingTestServer();

describe('POST /v1/payments (card)', () => {
  it.each([
    ['tok_visa', 'visa', '4242'],
    ['tok_mastercard', 'mastercard', '4444'],
  ])('%s succeeds with its card details', async (token, brand, last4) => {
    const res = await api.post('/v1/payments', { token_id: token, amount: 12345, currency: 'THB', description: 'Mug', metadata: { sku: 'M-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'succeeded',
      amount: 12345,
      qr_code_id: null,
      description: 'Mug',
      card: { brand, last4 },
      metadata: { sku: 'M-1' },
    });
    expect(res.body.completed_at).not.toBeNull();
    expect((await api.get(`/v1/payments/${res.body.payment_id}`)).body).toEqual(res.body);
  });

  it.each([
    ['tok_insufficient_funds', 'insufficient_funds'],
    ['tok_declined', 'card_declined'],
  ])('%s answers 402 %s and records a failed payment', async (token, code) => {
    const before = (await api.get('/Thai/v1/payments?status=failed')).body.total;
    const res = await api.post('/v1/payments', { token_id: token, amount: 5000, currency: 'THB' });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code, type: 'payment_error' });
    expect((await api.get('/Thai/v1/payments?status=failed')).body.total).toBe(before + 1);
  });

  it('refuses unknown tokens, bad amounts and currencies', async () => {
    expect((await api.post('/v1/payments', { token_id: 'tok_nope', amount: 5000, currency: 'THB' })).body.error.code).toBe('invalid_token');
    expect((await api.post('/v1/payments', { token_id: 'tok_visa', amount: 50, currency: 'THB' })).body.error.code).toBe('invalid_amount');
    expect((await api.post('/v1/payments', { token_id: 'tok_visa', amount: 5000, currency: 'EUR' })).body.error.code).toBe('invalid_currency');
    expect((await api.post('/v1/payments', { amount: 5000, currency: 'THB' })).status).toBe(400);
  });

  it('answers live keys with 400 card_payments_unavailable when no processor is configured', async () => {
    const live = apiClient(server.url, await server.merchant({ mode: 'live' }));
    const res = await live.post('/v1/payments', { token_id: 'tok_visa', amount: 5000, currency: 'THB' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('card_payments_unavailable');
  });

  it('card payments can be refunded', async () => {
    const paid = await api.post('/v1/payments', { token_id: 'tok_visa', amount: 5000, currency: 'THB' });
    const refund = await api.post('/v1/refunds', { payment_id: paid.body.payment_id });
    expect(refund.body).toMatchObject({ amount: 5000, status: 'succeeded' });
  });
});
