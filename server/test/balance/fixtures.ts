import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { parse } from 'promptparse';
import { expect } from 'vitest';
import { applyBankTransaction } from '../../src/app/bank-payments.js';
import type { Services } from '../../src/app/services.js';
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

/**
 * A live QR payment the bank reports paid now (by the service's clock) from the payer's own account, applied through the
 * bank connection's use case as a confirmation would be: a manual clock then decides when it completed.
 */
export async function paidAtBankNow(s: Services, api: ApiClient, amount: number): Promise<string> {
  const qr = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect(qr.status, qr.text).toBe(200);
  const ref1 = parse(qr.body.qr_data as string)!.getTagValue('30', '02')!;
  const outcome = await applyBankTransaction(s, {
    transactionId: `TX${randomInt(1e12)}`,
    amount: (amount / 100).toFixed(2),
    paidAt: s.clock.now(),
    ref1,
    ref2: null,
    billerId: s.bankConnection!.billerId,
    payerName: 'Somchai Jaidee',
    payerAccount: '0987654321',
    sendingBankCode: '004',
    reversed: false,
  });
  expect(outcome).toBe('succeeded');
  return qr.body.payment_id as string;
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

/**
 * The invariant from what the database recorded: a credit whose available_on has passed is available less what
 * refunds drew from it while pending; every other entry moves `available` except the part recorded as a draw.
 */
export async function balanceFromRecordedDraws(knex: Knex, merchantId: string, now: number): Promise<{ available: number; pending: number; sum: number }> {
  const entries: { id: string; type: string; net: string | number; available_on: Date; created_at: Date }[] = await knex('balance_transactions')
    .where({ merchant_id: merchantId })
    .select('id', 'type', 'net', 'available_on', 'created_at');
  const byId = new Map(entries.map((e) => [e.id, e]));
  const draws: { entry_id: string; credit_id: string; amount: string | number }[] = entries.length
    ? await knex('balance_draws')
        .whereIn(
          'credit_id',
          entries.map((e) => e.id),
        )
        .select('entry_id', 'credit_id', 'amount')
    : [];
  const drawnFrom = new Map<string, number>();
  const drawnBy = new Map<string, number>();
  for (const d of draws) {
    const entry = byId.get(d.entry_id)!;
    const credit = byId.get(d.credit_id)!;
    expect(credit.type).toBe('payment');
    expect(['refund', 'refund_reversal']).toContain(entry.type);
    // A draw on pending was made while its credit was still pending.
    expect(entry.created_at.getTime()).toBeLessThan(credit.available_on.getTime());
    drawnFrom.set(d.credit_id, (drawnFrom.get(d.credit_id) ?? 0) + Number(d.amount));
    drawnBy.set(d.entry_id, (drawnBy.get(d.entry_id) ?? 0) + Number(d.amount));
  }
  let available = 0;
  let pending = 0;
  let sum = 0;
  for (const e of entries) {
    const net = Number(e.net);
    sum += net;
    if (e.type !== 'payment') {
      available += net + (drawnBy.get(e.id) ?? 0);
      continue;
    }
    const left = net - (drawnFrom.get(e.id) ?? 0);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBeLessThanOrEqual(net);
    if (e.available_on.getTime() <= now) available += left;
    else pending += left;
  }
  return { available, pending, sum };
}
