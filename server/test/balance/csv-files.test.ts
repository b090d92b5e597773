import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPayoutCommand } from '../../src/cli/payouts.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { apiClient } from '../support/http.js';
import { paid, payoutAccount } from './fixtures.js';
import { payoutAccountArgs } from '../support/operator-cli.js';
import { scratchDir } from '../support/scratch-dir.js';

// Every CSV leaves the service RFC 4180 with CRLF, text cells defused against spreadsheet formulas, numbers as numbers.
let live: LiveBank;
const outDir = scratchDir('pqr-csv-');
beforeAll(async () => {
  live = await startLiveBank();
});
afterAll(() => live?.stop());

const BOM = [0xef, 0xbb, 0xbf];
/** Every line break is CRLF, the file ends with one, and no bare LF or CR is left outside quotes. */
function expectCrlfLines(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
}

describe('the ledger CSV (format=csv), meant for spreadsheets', () => {
  it('starts with a UTF-8 byte-order mark, ends lines with CRLF, and keeps a refund negative as a plain number', async () => {
    const merchant = await live.server.merchant({ payoutAccount });
    const api = apiClient(live.server.url, merchant);
    const paymentId = await paid(api, 20_000);
    expect((await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 5000 })).status).toBe(200);

    const res = await fetch(`${live.server.url}/Thai/v1/balance/transactions?format=csv`, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual(BOM);
    expectCrlfLines(bytes.subarray(3).toString('utf8'));

    const rows: Record<string, string>[] = parse(bytes, { bom: true, columns: true });
    expect(rows.map((row) => row.type)).toEqual(['payment', 'refund']);
    expect(rows[1]).toMatchObject({ amount: '-5000', amount_baht: '-50.00', net: '-5000', fee: '0', source_id: expect.stringMatching(/^rfd_/) });
    expect(rows[0]).toMatchObject({ amount: '20000', amount_baht: '200.00', net: '20000', source_id: paymentId });
  });
});

describe('the bank bulk-transfer export, meant for the bank', () => {
  it('has no byte-order mark, CRLF lines, and names that cannot run as formulas, Thai intact', async () => {
    const merchant = await live.server.merchant({ mode: 'live' });
    const api = apiClient(live.server.url, merchant);
    const operator = (...args: string[]) => runPayoutCommand(live.server.running.runtime.services, args);
    await operator(...payoutAccountArgs(merchant.id, { bankCode: '014', accountNumber: '1234567890', accountName: '=HYPERLINK("http://x")' }));

    // Payers whose names the bank reports; each is refunded in full, back to the account the bank named.
    const payers = ['+1', '-2', '@SUM(A1)', 'สมชาย ใจดี'];
    const refunds = new Map<string, string>();
    for (const [i, name] of payers.entries()) {
      const qr = await api.post('/Thai/v1/qr-codes', { amount: 10_000 + i, currency: 'THB' });
      expect(qr.status, qr.text).toBe(200);
      live.bank.pay({ qr_data: qr.body.qr_data, payer_name: name, payer_account: `098765432${i}`, sending_bank_code: '004' });
      await live.bank.callbacksSettled();
      expect((await api.get(`/Thai/v1/payments/${qr.body.payment_id}`)).body.status).toBe('succeeded');
      const refund = await api.post('/Thai/v1/refunds', { payment_id: qr.body.payment_id, amount: 4000 + i });
      expect(refund.status, refund.text).toBe(200);
      refunds.set(refund.body.refund_id, name);
    }
    const withdrawal = await api.post('/Thai/v1/withdrawals', { amount: 5000 });
    expect(withdrawal.status, withdrawal.text).toBe(200);

    const file = join(outDir, 'transfers.csv');
    await operator('withdrawals', 'export', '--out', file);
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 9).toString('utf8')).toBe('reference');
    expectCrlfLines(bytes.toString('utf8'));

    const rows: Record<string, string>[] = parse(bytes, { columns: true });
    const byReference = new Map(rows.map((row) => [row.reference!, row]));
    expect(byReference.get(withdrawal.body.withdrawal_id)).toEqual({
      reference: withdrawal.body.withdrawal_id,
      amount_satang: '5000',
      amount_thb: '50.00',
      bank_code: '014',
      account_number: '1234567890',
      account_name: `'=HYPERLINK("http://x")`,
    });
    const names = [...refunds].map(([id]) => byReference.get(id)?.account_name);
    expect(names).toEqual(["'+1", "'-2", "'@SUM(A1)", 'สมชาย ใจดี']);
    expect([...refunds].map(([id]) => byReference.get(id)?.amount_satang)).toEqual(['4000', '4001', '4002', '4003']);
  });
});
