import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceSandboxPayouts } from '../../src/app/withdrawals.js';
import { apiClient, expectEnvelope } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';
import { balanceOf, closedAccount, ledgerOf } from '../balance/fixtures.js';

// Bangkok is UTC+07:00: 2026-09-30T16:59:59Z is 23:59:59 on 30 September there, one second later it is 1 October.
const clock = manualClock(new Date('2026-09-30T16:59:59.000Z'));
// No background jobs: the test moves the payouts itself, at the times its clock says.
const { server, merchant, api } = usingTestServer({ clock, backgroundJobs: false, merchant: { feeBps: 300, payoutAccount: closedAccount } });
const sum = (entries: any[], field: string) => entries.reduce((total, e) => total + e[field], 0);
const minus = (amount: number) => 0 - amount; // never -0
const lastDayOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
const ledgerOfMonth = (month: string) => ledgerOf(api, `&start_date=${month}-01&end_date=${lastDayOf(month)}`);
const ledgerOfDay = (date: string) => ledgerOf(api, `&start_date=${date}&end_date=${date}`);

async function pay(amount: number, reference: string): Promise<string> {
  const qr = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB', reference });
  expect(qr.status, qr.text).toBe(200);
  expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
  return qr.body.payment_id;
}

/** The body's bytes as sent (fetch's text() drops a byte-order mark). */
async function bytesOf(path: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The sandbox rail moves each withdrawal one step a run (pending -> processed -> failed for a closed account). */
const payoutStep = () => advanceSandboxPayouts(server.running.runtime.services);

beforeAll(async () => {
  await pay(100_000, 'SEP-LAST'); // 23:59:59 on 30 September in Bangkok
  clock.advance(1_000);
  await pay(50_000, 'OCT-FIRST'); // 00:00:00 on 1 October
  clock.set(new Date('2026-10-15T05:00:00.000Z'));
  const [, september] = (await ledgerOf(api)).map((e) => e.source_id);
  expect((await api.post('/Thai/v1/refunds', { payment_id: september, amount: 10_000 })).status).toBe(200);
  expect((await api.post('/Thai/v1/withdrawals', { amount: 30_000 })).status).toBe(200);
  await payoutStep();
  await payoutStep(); // fails (closed account) on 15 October: its reversal is October's
  clock.set(new Date('2026-10-31T16:59:59.000Z'));
  expect((await api.post('/Thai/v1/withdrawals', { amount: 20_000 })).status).toBe(200);
  await payoutStep();
  clock.advance(1_000);
  await payoutStep(); // fails at 00:00:00 on 1 November: the money leaves in October and comes back in November
  await pay(25_000, 'NOV-FIRST');
});

describe('GET /reports/statements/{month}', () => {
  it('reconciles each month with the ledger to the satang, across month boundaries in Bangkok time', async () => {
    const months = ['2026-09', '2026-10', '2026-11', '2026-12'];
    let opening = 0;
    for (const month of months) {
      const res = await api.get(`/Thai/v1/reports/statements/${month}`);
      expect(res.status, res.text).toBe(200);
      const statement = res.body;
      const entries = await ledgerOfMonth(month);
      const ofType = (...types: string[]) => entries.filter((e) => types.includes(e.type));
      expect(statement.opening_balance).toBe(opening);
      expect(statement.closing_balance - statement.opening_balance).toBe(sum(entries, 'net'));
      expect(statement.payments).toEqual({ count: ofType('payment').length, gross: sum(ofType('payment'), 'amount') });
      expect(statement.fees).toBe(sum(entries, 'fee'));
      expect(statement.fee_vat).toBe(sum(entries, 'fee_vat'));
      expect(statement.refunds).toEqual({ count: ofType('refund').length, amount: minus(sum(ofType('refund'), 'amount')) });
      expect(statement.withdrawals).toEqual({ count: ofType('withdrawal').length, amount: minus(sum(ofType('withdrawal'), 'amount')) });
      const reversals = ofType('withdrawal_reversal', 'refund_reversal');
      expect(statement.reversals).toEqual({ count: reversals.length, amount: sum(reversals, 'amount') });
      const lines =
        statement.payments.gross - statement.fees - statement.fee_vat - statement.refunds.amount - statement.withdrawals.amount + statement.reversals.amount;
      expect(lines).toBe(statement.closing_balance - statement.opening_balance);
      opening = statement.closing_balance;
    }
    const balance = await balanceOf(api);
    expect(opening).toBe(balance.available + balance.pending);
  });

  it('puts a payment at 23:59:59 in its month and one at 00:00:00 in the next', async () => {
    const september = (await api.get('/Thai/v1/reports/statements/2026-09')).body;
    expect(september).toMatchObject({
      month: '2026-09',
      period_start: '2026-08-31T17:00:00.000Z',
      period_end: '2026-09-30T17:00:00.000Z',
      opening_balance: 0,
      payments: { count: 1, gross: 100_000 },
      fees: 3000,
      fee_vat: 210,
      closing_balance: 96_790,
    });
    const october = (await api.get('/Thai/v1/reports/statements/2026-10')).body;
    expect(october).toMatchObject({
      payments: { count: 1, gross: 50_000 },
      refunds: { count: 1, amount: 10_000 },
      withdrawals: { count: 2, amount: 50_000 },
      reversals: { count: 1, amount: 30_000 },
    });
    const november = (await api.get('/Thai/v1/reports/statements/2026-11')).body;
    expect(november).toMatchObject({ payments: { count: 1, gross: 25_000 }, withdrawals: { count: 0, amount: 0 }, reversals: { count: 1, amount: 20_000 } });
  });

  it('answers CSV whose movement lines add up to closing - opening', async () => {
    const json = (await api.get('/Thai/v1/reports/statements/2026-10')).body;
    const res = await api.get('/Thai/v1/reports/statements/2026-10?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows: Record<string, string>[] = parse(res.text, { columns: true });
    expect((await bytesOf('/Thai/v1/reports/statements/2026-10?format=csv')).bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const amountOf = (line: string) => Number(rows.find((r) => r.line === line)!.amount);
    for (const row of rows) expect(row.amount_baht).toBe((Number(row.amount) / 100).toFixed(2));
    expect(rows.map((r) => r.line)).toEqual(['opening_balance', 'payments', 'fees', 'fee_vat', 'refunds', 'withdrawals', 'reversals', 'closing_balance']);
    expect(amountOf('opening_balance')).toBe(json.opening_balance);
    expect(amountOf('closing_balance')).toBe(json.closing_balance);
    const movement = rows.slice(1, -1).reduce((total, r) => total + Number(r.amount), 0);
    expect(movement).toBe(json.closing_balance - json.opening_balance);
  });

  it('refuses a month not written YYYY-MM, and shows one merchant only its own ledger', async () => {
    for (const month of ['2026-13', '2026-1', 'october', '2026-10-01']) {
      expectEnvelope(await api.get(`/Thai/v1/reports/statements/${month}`), 400, 'invalid_parameters');
    }
    expectEnvelope(await api.get('/Thai/v1/reports/statements/2026-10?format=pdf'), 400, 'invalid_parameters');
    const other = apiClient(server.url, await server.merchant());
    const empty = (await other.get('/Thai/v1/reports/statements/2026-10')).body;
    expect(empty).toMatchObject({ opening_balance: 0, closing_balance: 0, payments: { count: 0, gross: 0 } });
  });
});

describe('GET /reports/settlements/{date}', () => {
  it('has one line per ledger entry of the Bangkok day, as the ledger CSV, plus the payment reference', async () => {
    for (const date of ['2026-09-30', '2026-10-01', '2026-10-15', '2026-10-31', '2026-11-01']) {
      const res = await api.get(`/Thai/v1/reports/settlements/${date}?format=csv`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines: Record<string, string>[] = parse(res.text, { bom: true, columns: true });
      const entries = (await ledgerOfDay(date)).reverse(); // the file runs oldest first
      expect(lines.map((l) => l.balance_transaction_id)).toEqual(entries.map((e) => e.balance_transaction_id));
      for (const [i, entry] of entries.entries()) {
        const { reference, ...columns } = lines[i]!;
        const asJson = Object.fromEntries(Object.entries(columns).filter(([k]) => !k.endsWith('_baht') && !k.endsWith('_bangkok')));
        expect(asJson).toEqual(Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, v === null ? '' : String(v)])));
        const expected = { payment: { '2026-09-30': 'SEP-LAST', '2026-10-01': 'OCT-FIRST', '2026-11-01': 'NOV-FIRST' }[date], refund: 'SEP-LAST' }[
          entry.type as string
        ];
        expect(reference).toBe(expected ?? '');
      }
    }
    const boundary = parse((await api.get('/Thai/v1/reports/settlements/2026-10-01')).text, { bom: true, columns: true });
    expect((boundary as Record<string, string>[]).map((l) => [l.type, l.reference])).toEqual([['payment', 'OCT-FIRST']]);
  });

  it('answers a header line alone for a day without entries, and refuses a date that is not one', async () => {
    const res = await bytesOf('/Thai/v1/reports/settlements/2026-10-02');
    expect(res.status).toBe(200);
    expect(res.bytes.toString('utf8')).toBe(
      `\uFEFF${'balance_transaction_id,type,amount,amount_baht,fee,fee_baht,fee_vat,fee_vat_baht,net,net_baht,currency,source_id,reference,withdrawal_id,available_on,available_on_bangkok,created_at,created_at_bangkok'}\r\n`,
    );
    for (const date of ['2026-02-30', '2026-10', 'yesterday']) expectEnvelope(await api.get(`/Thai/v1/reports/settlements/${date}`), 400, 'invalid_parameters');
    expectEnvelope(await api.get('/Thai/v1/reports/settlements/2026-10-01?format=json'), 400, 'invalid_parameters');
  });
});
