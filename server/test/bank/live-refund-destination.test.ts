import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayRequest } from '../../../scripts/bank-simulator/simulator.js';
import { runPayoutCommand } from '../../src/cli/payouts.js';
import { balanceOf, ledgerOf } from '../balance/fixtures.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { expectEnvelope } from '../support/http.js';
import { scratchDir } from '../support/scratch-dir.js';

// A stolen live key must not be able to send a refund anywhere but back to the account the money came from.
let live: LiveBank;
const outDir = scratchDir('pqr-refund-destination-');
beforeAll(async () => {
  live = await startLiveBank();
});
afterAll(async () => {
  await live?.stop();
});

const operator = (...args: string[]) => runPayoutCommand(live.server.running.runtime.services, args);

/** A live QR code (with what the merchant's request put in it), paid at the bank by `payer`. */
async function paidAtTheBank(qrBody: Record<string, unknown>, payer: Omit<PayRequest, 'qr_data'>): Promise<string> {
  const { paymentId, qrData } = await live.liveQr(15_000, qrBody);
  live.bank.pay({ qr_data: qrData, ...payer });
  await live.bank.callbacksSettled();
  expect((await live.api.get(`/Thai/v1/payments/${paymentId}`)).body.status).toBe('succeeded');
  return paymentId;
}

/** The transfers the next bulk-transfer export carries, one CSV line each (header dropped). */
async function exportedTransfers(name: string): Promise<string[]> {
  const file = join(outDir, `${name}.csv`);
  await operator('withdrawals', 'export', '--out', file);
  return (await readFile(file, 'utf8')).trim().split(/\r?\n/).slice(1);
}

/** The merchant's money as the API shows it: balance and refund entries of the ledger. */
const moneyOf = async () => ({ balance: await balanceOf(live.api), refundEntries: (await ledgerOf(live.api, '&type=refund')).length });

async function expectNothingRefunded(paymentId: string, before: Awaited<ReturnType<typeof moneyOf>>): Promise<void> {
  expect(await moneyOf()).toEqual(before);
  expect((await live.api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
  expect(
    (await live.api.get('/Thai/v1/transactions?type=refund&limit=100')).body.transactions.filter((t: { payment_id: string }) => t.payment_id === paymentId),
  ).toEqual([]);
  expect(await live.server.running.runtime.db.knex('refunds').where({ payment_id: paymentId })).toEqual([]);
}

describe('where a live refund goes', () => {
  it('to the account the bank reported, never to client_* values the merchant sent with the QR code', async () => {
    const paymentId = await paidAtTheBank(
      { client_name: 'Mallory', client_bank_name: 'KBANK', client_bank_account: '1234567890' },
      { payer_name: 'SOMSRI DEEJAI', payer_account: '0987654321', sending_bank_code: '014' },
    );
    // The merchant's values stay echoes on the payment, as in v1...
    expect((await live.api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ client_name: 'Mallory', client_bank_account: '1234567890' });

    const refund = await live.api.post('/Thai/v1/refunds', { payment_id: paymentId }, { idempotencyKey: `refund-${paymentId}` });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body).toMatchObject({ status: 'pending', amount: 15_000 });
    const replay = await live.api.post('/Thai/v1/refunds', { payment_id: paymentId }, { idempotencyKey: `refund-${paymentId}` });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(refund.body);

    // ...but the money goes back to the payer's account as the bank's inquiry listed it.
    const transfers = await exportedTransfers('bank-reported');
    expect(transfers.filter((line) => line.startsWith(refund.body.refund_id))).toEqual([`${refund.body.refund_id},15000,150.00,014,0987654321,SOMSRI DEEJAI`]);
    expect(transfers.join('\n')).not.toContain('1234567890');
  });

  it('nowhere when the bank reported the payer account masked: 422 payment_not_refundable, nothing debited, no refund', async () => {
    // The simulator reports `xxx-x-x1234-x` without payer_account, as SCB does for many sending banks.
    const paymentId = await paidAtTheBank({}, { payer_name: 'SOMCHAI JAIDEE', sending_bank_code: '004' });
    expect((await live.api.get(`/Thai/v1/payments/${paymentId}`)).body.client_bank_account).toMatch(/^xxx-x-x\d{4}-x$/);
    const before = await moneyOf();

    const refused = await live.api.post('/Thai/v1/refunds', { payment_id: paymentId });
    expectEnvelope(refused, 422, 'payment_not_refundable');
    expect(refused.body.error.message).toMatch(/xxx-x-x\d{4}-x.*not 10 to 15 digits/);
    await expectNothingRefunded(paymentId, before);
    expect((await exportedTransfers('masked')).filter((line) => line.includes(paymentId))).toEqual([]);
  });

  it('nowhere when the payer bank code is not one the payout rail knows: 422 payment_not_refundable, nothing debited', async () => {
    const paymentId = await paidAtTheBank(
      { client_bank_name: 'KBANK' },
      { payer_name: 'SOMSRI DEEJAI', payer_account: '0987654321', sending_bank_code: '999' },
    );
    const before = await moneyOf();

    const refused = await live.api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 5_000 });
    expectEnvelope(refused, 422, 'payment_not_refundable');
    expect(refused.body.error.message).toMatch(/bank code '999' is not one of 002, 004/);
    await expectNothingRefunded(paymentId, before);
  });
});
