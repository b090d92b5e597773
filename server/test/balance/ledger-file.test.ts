import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { usingTestServer } from '../support/test-server.js';
import { paid } from './fixtures.js';

// The accountant's ledger file: the whole range, baht beside satang, Bangkok time beside UTC, the payment's reference.
const { api } = usingTestServer();

const ledgerCsv = async (query = '') => {
  const res = await api.get(`/Thai/v1/balance/transactions?format=csv${query}`);
  expect(res.status, res.text).toBe(200);
  return parse(res.text, { bom: true, columns: true }) as Record<string, string>[];
};

/** Bangkok wall-clock time, as an independent clock on the wall reads it. */
const bangkok = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Bangkok', dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' }).format(new Date(iso));

describe('the ledger CSV', () => {
  it('writes each amount in baht beside its satang, each time in Bangkok beside its UTC, and the payment reference', async () => {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 615_340, currency: 'THB', reference: 'โต๊ะ 7' });
    expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
    expect((await api.post('/Thai/v1/refunds', { payment_id: qr.body.payment_id, amount: 1 })).status).toBe(200);

    const rows = await ledgerCsv();
    const [payment, refund] = rows.slice(-2);
    expect(payment).toMatchObject({ type: 'payment', amount: '615340', amount_baht: '6153.40', reference: 'โต๊ะ 7', source_id: qr.body.payment_id });
    expect(refund).toMatchObject({ type: 'refund', amount: '-1', amount_baht: '-0.01', net: '-1', net_baht: '-0.01', reference: 'โต๊ะ 7' });
    for (const row of rows) {
      for (const column of ['amount', 'fee', 'fee_vat', 'net']) expect(Number(row[`${column}_baht`]) * 100, column).toBeCloseTo(Number(row[column]), 6);
      for (const column of ['amount', 'fee', 'fee_vat', 'net']) expect(row[`${column}_baht`], column).toMatch(/^-?\d+\.\d\d$/);
      expect(row.created_at_bangkok).toBe(bangkok(row.created_at!));
      expect(row.available_on_bangkok).toBe(bangkok(row.available_on!));
    }
  });

  it('holds every entry of the range, oldest first, not one page: 1,000 entries sum to the balance', async () => {
    const before = (await ledgerCsv()).length;
    const amounts = Array.from({ length: 1_000 - before }, (_, i) => 100 + i);
    for (let i = 0; i < amounts.length; i += 8) await Promise.all(amounts.slice(i, i + 8).map((amount) => paid(api, amount)));

    const rows = await ledgerCsv();
    expect(rows).toHaveLength(1_000);
    expect(new Set(rows.map((row) => row.balance_transaction_id)).size).toBe(1_000);
    const times = rows.map((row) => row.created_at!);
    expect(times).toEqual([...times].sort());
    const balance = (await api.get('/Thai/v1/balance')).body as { available: number; pending: number };
    expect(rows.reduce((sum, row) => sum + Number(row.net), 0)).toBe(balance.available + balance.pending);
    // A filter still applies to the whole file.
    expect(await ledgerCsv('&type=refund')).toHaveLength(1);
  }, 300_000);
});
