import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveNewPayment } from '../../src/app/payment-state.js';
import { runPayoutCommand } from '../../src/cli/payouts.js';
import type { Payment } from '../../src/domain/payment.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import type { TestServer } from '../support/test-server.js';
import { balanceOf, ledgerOf, paid, payoutAccount } from './fixtures.js';
import { paymentRecord } from '../support/payments.js';
import { payoutAccountArgs } from '../support/operator-cli.js';
import { scratchDir } from '../support/scratch-dir.js';

// A server with a bank connection (the SCB simulator), so that live refunds have a payer the bank reported.
let live: LiveBank;
let server: TestServer;
const outDir = scratchDir('pqr-payouts-');
beforeAll(async () => {
  live = await startLiveBank();
  server = live.server;
});
afterAll(() => live?.stop());

const services = () => server.running.runtime.services;
/** The operator's command line, run in this process against the test server's database. */
const operator = (...args: string[]) => runPayoutCommand(services(), args);

/** A live payment made succeeded without the bank: it credits the balance, but no bank transaction names its payer. */
async function confirmedLivePayment(merchantId: string, amount: number, payer: Partial<Payment> = {}): Promise<string> {
  const s = services();
  const now = s.clock.now();
  const payment = paymentRecord({
    id: s.ids.next('payment'),
    merchantId,
    status: 'succeeded',
    amount,
    clientName: 'Somchai Jaidee',
    clientBankName: 'KBANK',
    clientBankAccount: '0987654321',
    createdAt: now,
    completedAt: now,
    ...payer,
  });
  await s.uow.run((tx) => saveNewPayment(tx, s, payment));
  return payment.id;
}

async function liveMerchant(balance: number): Promise<{ api: ApiClient; id: string }> {
  const merchant = await server.merchant({ mode: 'live', payoutAccount });
  if (balance > 0) await confirmedLivePayment(merchant.id, balance);
  return { api: apiClient(server.url, merchant), id: merchant.id };
}

/** A live QR payment the bank confirmed, paid from the payer's own account (as the bank's inquiry lists it). */
async function paidAtTheBank(api: ApiClient, amount: number): Promise<string> {
  const qr = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect(qr.status, qr.text).toBe(200);
  live.bank.pay({ qr_data: qr.body.qr_data, payer_name: 'Somchai Jaidee', payer_account: '0987654321', sending_bank_code: '004' });
  await live.bank.callbacksSettled();
  expect((await api.get(`/Thai/v1/payments/${qr.body.payment_id}`)).body.status).toBe('succeeded');
  return qr.body.payment_id as string;
}

const csvLines = async (file: string) => (await readFile(file, 'utf8')).trim().split('\r\n');

describe('live withdrawals: the bulk-transfer rail', () => {
  it('stay pending for the sandbox worker, go out in the export file as processed, then are marked by the operator', async () => {
    const { api } = await liveMerchant(80_000);
    const first = (await api.post('/Thai/v1/withdrawals', { amount: 30_000 })).body;
    const second = (await api.post('/Thai/v1/withdrawals', { amount: 20_000 })).body;
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the sandbox rail's worker leaves live withdrawals alone
    expect((await api.get(`/Thai/v1/withdrawals/${first.withdrawal_id}`)).body.status).toBe('pending');

    // Marking a withdrawal the bank has not been sent yet as succeeded is refused, and changes nothing.
    await expect(operator('withdrawals', 'mark', first.withdrawal_id, '--succeeded')).rejects.toThrow(/pending; it cannot become succeeded/);

    const file = join(outDir, 'batch-1.csv');
    await operator('withdrawals', 'export', '--out', file);
    const [header, ...lines] = await csvLines(file);
    expect(header).toBe('reference,amount_satang,amount_thb,bank_code,account_number,account_name');
    expect(lines.sort()).toEqual(
      [
        `${first.withdrawal_id},30000,300.00,014,1234567890,"Noodle Shop Co., Ltd."`,
        `${second.withdrawal_id},20000,200.00,014,1234567890,"Noodle Shop Co., Ltd."`,
      ].sort(),
    );
    expect((await api.get(`/Thai/v1/withdrawals/${first.withdrawal_id}`)).body.status).toBe('processed');

    // A second export finds nothing pending: a header only, no transfer twice.
    const again = join(outDir, 'batch-2.csv');
    await operator('withdrawals', 'export', '--out', again);
    expect(await csvLines(again)).toEqual([header]);

    await operator('withdrawals', 'mark', first.withdrawal_id, '--succeeded');
    await operator('withdrawals', 'mark', first.withdrawal_id, '--succeeded'); // idempotent
    await expect(operator('withdrawals', 'mark', first.withdrawal_id, '--failed', 'account_closed')).rejects.toThrow(/succeeded; it cannot become failed/);
    await operator('withdrawals', 'mark', second.withdrawal_id, '--failed', 'invalid_account');
    await operator('withdrawals', 'mark', second.withdrawal_id, '--failed', 'invalid_account'); // idempotent: returned once
    await expect(operator('withdrawals', 'mark', second.withdrawal_id, '--succeeded')).rejects.toThrow(/failed; it cannot become succeeded/);

    expect((await api.get(`/Thai/v1/withdrawals/${first.withdrawal_id}`)).body).toMatchObject({ status: 'succeeded' });
    expect((await api.get(`/Thai/v1/withdrawals/${second.withdrawal_id}`)).body).toMatchObject({ status: 'failed', failure_code: 'invalid_account' });
    expect(await balanceOf(api)).toEqual({ available: 50_000, pending: 0 });
    expect((await ledgerOf(api, '&type=withdrawal_reversal')).map((e) => e.amount)).toEqual([20_000]);
  });

  it('a pending live withdrawal can be failed before export (the rail refused it); test withdrawals belong to the sandbox rail', async () => {
    const { api } = await liveMerchant(10_000);
    const w = (await api.post('/Thai/v1/withdrawals', { amount: 10_000 })).body;
    await operator('withdrawals', 'mark', w.withdrawal_id, '--failed', 'rejected');
    expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 0 });

    const test = apiClient(server.url, await server.merchant({ payoutAccount }));
    await paid(test, 1000);
    const sandboxed = (await test.post('/Thai/v1/withdrawals', { amount: 1000 })).body;
    await expect(operator('withdrawals', 'mark', sandboxed.withdrawal_id, '--failed', 'rejected')).rejects.toThrow(/sandbox rail settles it/);
    await expect(operator('withdrawals', 'mark', 'wd_doesnotexist', '--succeeded')).rejects.toThrow(/No withdrawal/);
    await expect(operator('withdrawals', 'mark', 'nonsense', '--succeeded')).rejects.toThrow(/name the transfer/);
    await expect(operator('withdrawals', 'mark', w.withdrawal_id)).rejects.toThrow(/exactly one of/);
  });
});

describe('live refunds: paid back to the payer through the payout rail', () => {
  it('start pending, go out in the export, and complete when marked', async () => {
    const { api } = await liveMerchant(0);
    const paymentId = await paidAtTheBank(api, 40_000);
    const refund = await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 15_000, reason: 'returned' });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.status).toBe('pending');
    expect(await balanceOf(api)).toEqual({ available: 25_000, pending: 0 });
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body.refunded_amount).toBe(15_000);
    const txn = (await api.get('/Thai/v1/transactions?type=refund')).body.transactions[0];
    expect(txn).toMatchObject({ refund_id: refund.body.refund_id, status: 'pending', amount: -15_000 });

    await expect(operator('withdrawals', 'mark', refund.body.refund_id, '--succeeded')).rejects.toThrow(/not been exported/);
    const file = join(outDir, 'refunds.csv');
    await operator('withdrawals', 'export', '--out', file);
    expect((await csvLines(file)).filter((line) => line.startsWith(refund.body.refund_id))).toEqual([
      `${refund.body.refund_id},15000,150.00,004,0987654321,Somchai Jaidee`,
    ]);

    await operator('withdrawals', 'mark', refund.body.refund_id, '--succeeded');
    await operator('withdrawals', 'mark', refund.body.refund_id, '--succeeded');
    expect((await api.get(`/Thai/v1/refunds/${refund.body.refund_id}`)).body.status).toBe('succeeded');
    expect((await api.get('/Thai/v1/transactions?type=refund')).body.transactions[0].status).toBe('succeeded');
    expect(await balanceOf(api)).toEqual({ available: 25_000, pending: 0 });
  });

  it('a failed one gives back what it took: the balance, refunded_amount and the payment state, once', async () => {
    const { api } = await liveMerchant(0);
    const paymentId = await paidAtTheBank(api, 12_000);
    const refund = (await api.post('/Thai/v1/refunds', { payment_id: paymentId })).body;
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'refunded', refunded_amount: 12_000 });
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });

    await operator('withdrawals', 'mark', refund.refund_id, '--failed', 'account_closed');
    await operator('withdrawals', 'mark', refund.refund_id, '--failed', 'account_closed');
    await expect(operator('withdrawals', 'mark', refund.refund_id, '--succeeded')).rejects.toThrow(/failed; it cannot become succeeded/);
    expect((await api.get(`/Thai/v1/refunds/${refund.refund_id}`)).body.status).toBe('failed');
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect(await balanceOf(api)).toEqual({ available: 12_000, pending: 0 });
    expect((await ledgerOf(api)).map((e) => e.type)).toEqual(['refund_reversal', 'refund', 'payment']);
    // Not exported after failing.
    const file = join(outDir, 'after-fail.csv');
    await operator('withdrawals', 'export', '--out', file);
    expect((await csvLines(file)).slice(1).filter((line) => line.startsWith(refund.refund_id))).toEqual([]);
  });

  it('a live payment whose payer account no bank transaction reports answers 422 payment_not_refundable, saying why', async () => {
    const { api, id } = await liveMerchant(0);
    const paymentId = await confirmedLivePayment(id, 5000); // its client_* fields name an account, but the bank never did
    const refused = await api.post('/Thai/v1/refunds', { payment_id: paymentId });
    expectEnvelope(refused, 422, 'payment_not_refundable');
    expect(refused.body.error.message).toMatch(/payer's bank account is unknown/);
    expect(await balanceOf(api)).toEqual({ available: 5000, pending: 0 });
  });
});

describe('operator settings', () => {
  it('merchants payout-account validates the bank code and account number; merchants fees applies to later payments', async () => {
    const merchant = await server.merchant();
    await expect(operator(...payoutAccountArgs(merchant.id, { bankCode: '999', accountNumber: '1234567890', accountName: 'X' }))).rejects.toThrow(
      /bank code '999'/,
    );
    await expect(operator(...payoutAccountArgs(merchant.id, { bankCode: '014', accountNumber: '12345', accountName: 'X' }))).rejects.toThrow(/10 to 15 digits/);
    await expect(operator(...payoutAccountArgs('mch_nobody', { bankCode: '014', accountNumber: '1234567890', accountName: 'X' }))).rejects.toThrow(
      /no merchant/,
    );
    await operator(...payoutAccountArgs(merchant.id, { bankCode: '073', accountNumber: '123456789012345', accountName: 'LH Shop' }));
    await expect(operator('merchants', 'fees', '--merchant', merchant.id, '--fee-bps', '-1')).rejects.toThrow(/--fee-bps/);
    await operator('merchants', 'fees', '--merchant', merchant.id, '--fee-bps', '1000');

    const api = apiClient(server.url, merchant);
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10_000, currency: 'THB' });
    await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`);
    expect(await balanceOf(api)).toEqual({ available: 8930, pending: 0 }); // fee 1000, VAT 70
    const w = await api.post('/Thai/v1/withdrawals', { amount: 8930 });
    expect(w.body.destination).toEqual({ bank_code: '073', bank_name: 'LHB', account_last4: '2345', account_name: 'LH Shop' });
  });
});
