import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireOverduePayments } from '../../src/app/expire-overdue-payments.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { manualClock } from '../support/test-server.js';
import { callbackUrlOf, startLiveBank, type LiveBank } from '../support/bank.js';

// The service and the bank read one manual clock, except where a test holds the bank's clock back on purpose.
const clock = manualClock();
let bankTime: (() => Date) | null = null;
let live: LiveBank;
let sandbox: ApiClient;
beforeAll(async () => {
  // Every confirmation is lost: a payment is applied only when the service asks the bank.
  live = await startLiveBank({ clock, knobs: { dropRate: 1 }, simulator: { now: () => bankTime?.() ?? clock.now() } });
  sandbox = apiClient(live.server.url, await live.server.merchant());
});
afterAll(async () => {
  await live?.stop();
});

const services = () => live.server.running.runtime.services;
const sweep = () => expireOverduePayments(services());
const paymentOf = async (id: string) => (await live.api.get(`/Thai/v1/payments/${id}`)).body;
const eventsOf = async (api: ApiClient, paymentId: string) =>
  ((await api.get('/Thai/v1/events?limit=100')).body.events as { event: string; data: { payment_id: string; status: string } }[])
    .filter((e) => e.data.payment_id === paymentId)
    .map((e) => `${e.event}:${e.data.status}`)
    .reverse();
const unmatchedOf = async (transactionId: string) =>
  (await services().uow.repos.bankTransactions.listUnmatched(1000)).filter((u) => u.transactionId === transactionId);

/** A live QR code that expires a minute from now, and the moment it does. */
async function oneMinuteQr(amount = 15000) {
  const qr = await live.liveQr(amount, { expiry_minutes: 1 });
  return { ...qr, expiresAt: new Date((await paymentOf(qr.paymentId)).expires_at) };
}

describe('a live payment paid in time is never lost to expiry', () => {
  it('paid 1 s before expires_at, callback lost, sweeper after expiry: the payment succeeds, once, with its event and credit', async () => {
    const balanceBefore = (await live.api.get('/Thai/v1/balance')).body;
    const { paymentId, qrData, expiresAt } = await oneMinuteQr(15000);
    clock.set(new Date(expiresAt.getTime() - 1_000));
    const { transaction, callback } = live.bank.pay({ qr_data: qrData, payer_account: '1234567890', sending_bank_code: '004' });
    expect(callback).toBe('dropped');

    clock.set(new Date(expiresAt.getTime() + 61_000));
    await sweep();

    expect(await paymentOf(paymentId)).toMatchObject({
      status: 'succeeded',
      completed_at: new Date(expiresAt.getTime() - 1_000).toISOString(),
      client_bank_name: 'KBANK',
    });
    expect(await eventsOf(live.api, paymentId)).toEqual(['payment.pending:pending', 'payment.succeeded:succeeded']);
    const balance = (await live.api.get('/Thai/v1/balance')).body;
    expect(balance.available + balance.pending).toBe(balanceBefore.available + balanceBefore.pending + 15000);
    const transactions = (await live.api.get('/Thai/v1/transactions?limit=100')).body.transactions.filter(
      (t: { payment_id: string }) => t.payment_id === paymentId,
    );
    expect(transactions).toMatchObject([{ type: 'payment', status: 'succeeded', amount: 15000 }]);
    expect(await unmatchedOf(transaction.transactionId)).toEqual([]);
    // Later sweeps change nothing.
    clock.advance(60_000);
    await sweep();
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
  });

  it('a payment already marked expired succeeds when the bank reports money it took before expires_at', async () => {
    const balanceBefore = (await live.api.get('/Thai/v1/balance')).body;
    const { paymentId, qrData, expiresAt } = await oneMinuteQr(12300);
    clock.set(new Date(expiresAt.getTime() + 61_000));
    await sweep(); // the bank lists nothing yet
    expect((await paymentOf(paymentId)).status).toBe('expired');

    // The bank lists, late, a payment it dated 1 s before expiry; its confirmation arrives a little later.
    clock.advance(1_000);
    bankTime = () => new Date(expiresAt.getTime() - 1_000);
    const { transaction } = live.bank.pay({ qr_data: qrData });
    bankTime = null;
    const { reverseFlag: _reverseFlag, ...confirmation } = transaction;
    const answer = await fetch(callbackUrlOf(live.server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(confirmation),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ resCode: '00', transactionId: transaction.transactionId });

    expect(await paymentOf(paymentId)).toMatchObject({ status: 'succeeded', completed_at: new Date(expiresAt.getTime() - 1_000).toISOString() });
    expect(await eventsOf(live.api, paymentId)).toEqual(['payment.pending:pending', 'payment.failed:expired', 'payment.succeeded:succeeded']);
    const balance = (await live.api.get('/Thai/v1/balance')).body;
    expect(balance.available + balance.pending).toBe(balanceBefore.available + balanceBefore.pending + 12300);
    const transactions = (await live.api.get('/Thai/v1/transactions?limit=100')).body.transactions.filter(
      (t: { payment_id: string }) => t.payment_id === paymentId,
    );
    expect(transactions).toMatchObject([{ type: 'payment', status: 'succeeded', amount: 12300 }]);
    expect(await unmatchedOf(transaction.transactionId)).toEqual([]);
  });

  it('money the bank dated exactly at expires_at still fits; a millisecond later it is unmatched', async () => {
    const onTime = await oneMinuteQr();
    bankTime = () => onTime.expiresAt;
    live.bank.pay({ qr_data: onTime.qrData });
    const late = await oneMinuteQr();
    bankTime = () => new Date(late.expiresAt.getTime() + 1);
    const lateTransaction = live.bank.pay({ qr_data: late.qrData }).transaction;
    bankTime = null;
    clock.set(new Date(Math.max(onTime.expiresAt.getTime(), late.expiresAt.getTime()) + 61_000));
    await sweep();
    expect((await paymentOf(onTime.paymentId)).status).toBe('succeeded');
    expect((await paymentOf(late.paymentId)).status).toBe('expired');
    expect(await unmatchedOf(lateTransaction.transactionId)).toMatchObject([{ reason: 'payment_expired', paymentId: late.paymentId }]);
  });
});

describe('the sweeper and live payments', () => {
  it('waits 60 s past expires_at before it expires a live payment the bank lists nothing for', async () => {
    const { paymentId, expiresAt } = await oneMinuteQr();
    clock.set(new Date(expiresAt.getTime() + 59_000));
    await sweep();
    expect((await paymentOf(paymentId)).status).toBe('pending');
    clock.set(new Date(expiresAt.getTime() + 60_000));
    await sweep();
    expect((await paymentOf(paymentId)).status).toBe('expired');
    expect(await eventsOf(live.api, paymentId)).toEqual(['payment.pending:pending', 'payment.failed:expired']);
  });

  it('does not expire a live payment while the bank cannot be asked; the next sweep does', async () => {
    const { paymentId, expiresAt } = await oneMinuteQr();
    clock.set(new Date(expiresAt.getTime() + 5 * 60_000));
    live.bank.knobs.inquiryDown = true;
    try {
      await sweep();
      await sweep();
      expect((await paymentOf(paymentId)).status).toBe('pending');
    } finally {
      live.bank.knobs.inquiryDown = false;
    }
    await sweep();
    expect((await paymentOf(paymentId)).status).toBe('expired');
  });

  it('test payments expire at expires_at as before, and an expired test payment never succeeds', async () => {
    const res = await sandbox.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB', expiry_minutes: 1 });
    expect(res.status).toBe(200);
    const paymentId = res.body.payment_id as string;
    live.bank.knobs.inquiryDown = true; // test payments never ask the bank
    try {
      clock.set(new Date(Date.parse(res.body.expires_at) + 1));
      await sweep();
    } finally {
      live.bank.knobs.inquiryDown = false;
    }
    expect((await sandbox.get(`/Thai/v1/payments/${paymentId}`)).body.status).toBe('expired');
    const succeed = await sandbox.post(`/Thai/v1/test/payments/${paymentId}/succeed`);
    expect(succeed.status).toBe(422);
    expect(succeed.body.error.code).toBe('payment_not_pending');
    expect((await sandbox.get(`/Thai/v1/payments/${paymentId}`)).body.status).toBe('expired');
    expect(await eventsOf(sandbox, paymentId)).toEqual(['payment.pending:pending', 'payment.failed:expired']);
  });
});
