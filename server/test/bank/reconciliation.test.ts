import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileBankPayments } from '../../src/app/bank-payments.js';
import { expireOverduePayments } from '../../src/app/expire-overdue-payments.js';
import { eventually } from '../support/receiver.js';
import { manualClock } from '../support/test-server.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';

const INTERVAL_MS = 60_000;
const clock = manualClock();
let live: LiveBank;
beforeAll(async () => {
  // Every confirmation is lost: only reconciliation can apply a payment here. The bank dates payments by the same clock.
  live = await startLiveBank({ clock, knobs: { dropRate: 1 }, simulator: { now: () => clock.now() } });
});
afterAll(async () => {
  await live?.stop();
});

const services = () => live.server.running.runtime.services;
const statusOf = async (id: string) => (await live.api.get(`/Thai/v1/payments/${id}`)).body.status;
/** The next round: the previous one leased what it checked for one interval. */
const nextRound = () => {
  clock.advance(INTERVAL_MS);
  return reconcileBankPayments(services(), INTERVAL_MS);
};

describe('reconciliation', () => {
  it('applies a payment whose confirmation was lost, once', async () => {
    const { paymentId, qrData } = await live.liveQr(15000);
    const { callback } = live.bank.pay({ qr_data: qrData, sending_bank_code: '014' });
    expect(callback).toBe('dropped');
    expect(await statusOf(paymentId)).toBe('pending');
    const round = await nextRound();
    expect(round.outcomes.succeeded).toBe(1);
    expect((await live.api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'succeeded', client_bank_name: 'SCB' });
    // The settled payment is no longer asked about.
    expect((await nextRound()).checked).toBe(0);
  });

  it('leases each check for one interval: a second round at once asks the bank nothing', async () => {
    const { paymentId } = await live.liveQr(15000);
    expect((await nextRound()).checked).toBe(1);
    expect((await reconcileBankPayments(services(), INTERVAL_MS)).checked).toBe(0);
    expect(await statusOf(paymentId)).toBe('pending');
  });

  it('two reconcilers at once check each payment once and apply each transaction once', async () => {
    const paid = [];
    for (let i = 0; i < 6; i++) {
      const qr = await live.liveQr(10000 + i);
      live.bank.pay({ qr_data: qr.qrData });
      paid.push(qr.paymentId);
    }
    clock.advance(INTERVAL_MS);
    const rounds = await Promise.all([reconcileBankPayments(services(), INTERVAL_MS, 2), reconcileBankPayments(services(), INTERVAL_MS, 2)]);
    expect(rounds.reduce((n, r) => n + r.outcomes.succeeded, 0)).toBe(6);
    expect(rounds.reduce((n, r) => n + r.outcomes.duplicate, 0)).toBe(0);
    for (const id of paid) expect(await statusOf(id)).toBe('succeeded');
  });

  it('while the inquiry is down nothing changes; the next round applies', async () => {
    const { paymentId, qrData } = await live.liveQr(15000);
    live.bank.pay({ qr_data: qrData });
    live.bank.knobs.inquiryDown = true;
    try {
      const round = await nextRound();
      expect(round.unavailable).toBeGreaterThanOrEqual(1);
      expect(await statusOf(paymentId)).toBe('pending');
    } finally {
      live.bank.knobs.inquiryDown = false;
    }
    expect((await nextRound()).outcomes.succeeded).toBe(1);
    expect(await statusOf(paymentId)).toBe('succeeded');
  });

  it('a reversed transaction is never applied', async () => {
    const { paymentId, qrData } = await live.liveQr(15000);
    const { transaction } = live.bank.pay({ qr_data: qrData });
    live.bank.reverse(transaction.transactionId);
    expect((await nextRound()).outcomes.reversed).toBe(1);
    expect(await statusOf(paymentId)).toBe('pending');
  });

  it('asks about payments that expired in the last 24 h: money that came too late is recorded as unmatched', async () => {
    const { paymentId, qrData } = await live.liveQr(15000, { expiry_minutes: 1 });
    clock.advance(2 * 60_000);
    await expireOverduePayments(services());
    const { transaction } = live.bank.pay({ qr_data: qrData });
    expect((await nextRound()).outcomes.unmatched).toBe(1);
    expect(await statusOf(paymentId)).toBe('expired');
    const unmatched = await services().uow.repos.bankTransactions.listUnmatched(100);
    expect(unmatched.find((u) => u.transactionId === transaction.transactionId)).toMatchObject({ reason: 'payment_not_pending', paymentId });
    // A day after its expiry, an expired payment is no longer asked about.
    // (the other tests' payments expire too, and are then also asked about for 24 h)
    clock.advance(25 * 60 * 60_000);
    await expireOverduePayments(services());
    clock.advance(25 * 60 * 60_000);
    expect((await reconcileBankPayments(services(), INTERVAL_MS)).checked).toBe(0);
    // Finished checks are deleted, so the table holds only what is still to be asked about.
    const [left] = await live.server.running.runtime.db.knex('bank_checks').count({ n: '*' });
    expect(Number(left!.n)).toBe(0);
  });
});

it('runs in the background of every server on BANK_RECONCILE_INTERVAL_MS, whatever WEBHOOK_DISPATCHER says', async () => {
  const background = await startLiveBank({ knobs: { dropRate: 1 }, env: { BANK_RECONCILE_INTERVAL_MS: '200', WEBHOOK_DISPATCHER: 'off' } });
  try {
    const { paymentId, qrData } = await background.liveQr(15000);
    background.bank.pay({ qr_data: qrData });
    await eventually(
      async () => (await background.api.get(`/Thai/v1/payments/${paymentId}`)).body.status === 'succeeded',
      'reconciled in the background',
      10_000,
    );
  } finally {
    await background.stop();
  }
});
