import { expect } from 'vitest';
import type { ApiClient } from '../support/http.js';
import { eventually } from '../support/receiver.js';

export const payoutAccount = { bankCode: '014', accountNumber: '1234567890', accountName: 'Noodle Shop Co., Ltd.' };
/** The sandbox rail fails transfers to accounts ending in 0000. */
export const closedAccount = { bankCode: '004', accountNumber: '9876540000', accountName: 'Closed Shop' };

/** A QR payment of `amount` satang, paid through the sandbox bank. */
export async function paid(api: ApiClient, amount: number, payer: Record<string, string> = {}): Promise<string> {
  const created = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect(created.status, created.text).toBe(200);
  const done = await api.post(`/Thai/v1/test/payments/${created.body.payment_id}/succeed`, payer);
  expect(done.status, done.text).toBe(200);
  return created.body.payment_id as string;
}

export async function balanceOf(api: ApiClient): Promise<{ available: number; pending: number }> {
  const res = await api.get('/Thai/v1/balance');
  expect(res.status, res.text).toBe(200);
  expect(res.body.currency).toBe('THB');
  return { available: res.body.available, pending: res.body.pending };
}

export async function ledgerOf(api: ApiClient, query = ''): Promise<any[]> {
  const entries: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await api.get(`/Thai/v1/balance/transactions?limit=100&offset=${offset}${query}`);
    expect(res.status, res.text).toBe(200);
    entries.push(...res.body.balance_transactions);
    if (offset + 100 >= res.body.total) return entries;
  }
}

export const finalStatus = (api: ApiClient, withdrawalId: string) =>
  eventually(async () => {
    const res = await api.get(`/Thai/v1/withdrawals/${withdrawalId}`);
    return ['succeeded', 'failed'].includes(res.body.status) ? res.body : null;
  }, `withdrawal ${withdrawalId} to settle`);
