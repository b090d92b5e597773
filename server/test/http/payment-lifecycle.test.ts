import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';
import { expireOverduePayments } from '../../src/app/expire-overdue-payments.js';

const clock = manualClock(new Date('2026-11-20T08:00:00.000Z'));
const { server, api } = usingTestServer({ clock });

async function pendingPayment(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/Thai/v1/qr-codes', { amount: 50000, currency: 'THB', reference: 'INV-7', ...extra });
  expect(res.status).toBe(200);
  return res.body.payment_id as string;
}

const transactionOf = async (paymentId: string) => {
  const list = await api.get('/Thai/v1/transactions?limit=100');
  return list.body.transactions.filter((t: { payment_id: string }) => t.payment_id === paymentId);
};

describe('payment state machine through the test helpers', () => {
  it('pending -> succeeded sets completed_at and fills payer details the merchant left empty', async () => {
    const id = await pendingPayment({ client_name: 'Given Name' });
    const res = await api.post(`/Thai/v1/test/payments/${id}/succeed`, {
      client_name: 'Bank Name',
      client_bank_name: 'KBank',
      client_bank_account: '123-4-56789-0',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'succeeded',
      client_name: 'Given Name',
      client_bank_name: 'KBank',
      client_bank_account: '123-4-56789-0',
      completed_at: clock.now().toISOString(),
    });
    expect(await transactionOf(id)).toMatchObject([{ type: 'payment', status: 'succeeded', amount: 50000 }]);
  });

  it('pending -> failed makes the transaction type failed', async () => {
    const id = await pendingPayment();
    const res = await api.post(`/Thai/v1/test/payments/${id}/fail`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.completed_at).toBeNull();
    expect(await transactionOf(id)).toMatchObject([{ type: 'failed', status: 'failed' }]);
  });

  it('pending -> expired by the helper makes the image answer 410', async () => {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 50000, currency: 'THB' });
    const res = await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/expire`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('expired');
    const image = await fetch(qr.body.qr_image_url);
    expect(image.status).toBe(410);
    expect((await image.json()).error.code).toBe('qr_code_expired');
  });

  it.each([
    ['succeed', 'succeed'],
    ['succeed', 'fail'],
    ['fail', 'succeed'],
    ['fail', 'expire'],
    ['expire', 'succeed'],
    ['expire', 'fail'],
  ])('refuses %s then %s with 422 payment_not_pending and changes nothing', async (first, second) => {
    const id = await pendingPayment();
    expect((await api.post(`/Thai/v1/test/payments/${id}/${first}`)).status).toBe(200);
    const before = await api.get(`/Thai/v1/payments/${id}`);
    const res = await api.post(`/Thai/v1/test/payments/${id}/${second}`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'payment_not_pending', type: 'validation_error' });
    expect((await api.get(`/Thai/v1/payments/${id}`)).text).toBe(before.text);
  });

  it('refuses a completion that arrives after expires_at, before the sweeper ran', async () => {
    const id = await pendingPayment({ expiry_minutes: 1 });
    clock.advance(61_000);
    const res = await api.post(`/Thai/v1/test/payments/${id}/succeed`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('payment_not_pending');
    expect((await api.get(`/Thai/v1/payments/${id}`)).body.status).toBe('pending');
  });

  it('the sweeper expires overdue pending payments and leaves others alone', async () => {
    const overdue = await pendingPayment({ expiry_minutes: 1 });
    const fresh = await pendingPayment({ expiry_minutes: 30 });
    clock.advance(2 * 60_000);
    await expireOverduePayments(server.running.runtime.services);
    expect((await api.get(`/Thai/v1/payments/${overdue}`)).body.status).toBe('expired');
    expect((await api.get(`/Thai/v1/payments/${fresh}`)).body.status).toBe('pending');
    expect(await transactionOf(overdue)).toMatchObject([{ type: 'failed', status: 'failed' }]);
  });

  it('live keys get no QR code without a bank connection (BANK=sandbox): 400 qr_payments_unavailable, nothing created', async () => {
    const live = apiClient(server.url, await server.merchant({ mode: 'live' }));
    const qr = await live.post('/Thai/v1/qr-codes', { amount: 50000, currency: 'THB' });
    expect(qr.status).toBe(400);
    expect(qr.body.error).toMatchObject({ code: 'qr_payments_unavailable', type: 'validation_error' });
    expect((await live.get('/Thai/v1/payments')).body.total).toBe(0);
  });

  it('answers 404 payment_not_found for an unknown payment, on both paths', async () => {
    for (const path of ['/Thai/v1/payments/pay_unknown', '/v1/payments/pay_unknown', '/Thai/v1/test/payments/pay_unknown/succeed']) {
      const res = path.includes('/test/') ? await api.post(path) : await api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'payment_not_found', type: 'not_found' });
    }
  });
});
