import { afterAll, beforeAll, expect, it } from 'vitest';
import { expireOverduePayments } from '../../src/app/expire-overdue-payments.js';
import { crc16CcittFalse } from '../../src/domain/promptpay-payload.js';
import { manualClock } from '../support/test-server.js';
import { bankSettings, startLiveBank, type LiveBank } from '../support/bank.js';

// The service's clock starts an hour ago, the bank's is real: a payment made now can be past a QR code's expiry.
const clock = manualClock(new Date(Date.now() - 60 * 60_000));
let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank({ clock });
});
afterAll(async () => {
  await live?.stop();
});

const paymentOf = async (id: string) => (await live.api.get(`/Thai/v1/payments/${id}`)).body;
const unmatched = () => live.server.running.runtime.services.uow.repos.bankTransactions.listUnmatched(1000);

async function payAndSettle(request: Parameters<LiveBank['bank']['pay']>[0]) {
  const { transaction } = live.bank.pay(request);
  await live.bank.callbacksSettled();
  // Money that does not fit still gets the bank its 200, so it stops resending.
  expect(live.bank.callbackAttempts.filter((a) => a.transactionId === transaction.transactionId).at(-1)?.status).toBe(200);
  return transaction;
}

it('a payment of another amount is unmatched and the payment stays pending', async () => {
  const { paymentId, qrData } = await live.liveQr(15000, { expiry_minutes: 1440 });
  const transaction = await payAndSettle({ qr_data: qrData, paid_amount: '149.99' });
  expect((await paymentOf(paymentId)).status).toBe('pending');
  expect((await unmatched()).find((u) => u.transactionId === transaction.transactionId)).toMatchObject({
    id: expect.stringMatching(/^btx_/),
    reason: 'amount_mismatch',
    amount: '149.99',
    paymentId,
  });
});

it('the same amount written another way ("150", "150.0000") fits', async () => {
  for (const amount of ['150', '150.0000']) {
    const { paymentId, qrData } = await live.liveQr(15000, { expiry_minutes: 1440 });
    await payAndSettle({ qr_data: qrData, paid_amount: amount });
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
  }
});

it('an unknown ref1 (a test-mode payment reference, or none of ours) is unmatched', async () => {
  const { qrData, ref1 } = await live.liveQr(15000, { expiry_minutes: 1440 });
  const body = qrData.replace(ref1, 'Z'.repeat(ref1.length)).slice(0, -4);
  const transaction = await payAndSettle({ qr_data: body + crc16CcittFalse(body) });
  expect((await unmatched()).find((u) => u.transactionId === transaction.transactionId)).toMatchObject({ reason: 'unknown_reference', paymentId: null });
});

it('money paid after expires_at is unmatched, whether or not the sweeper has expired the payment yet', async () => {
  const late = await live.liveQr(15000, { expiry_minutes: 30 }); // expired 30 minutes ago by the bank's clock
  const lateTransaction = await payAndSettle({ qr_data: late.qrData });
  expect((await paymentOf(late.paymentId)).status).toBe('pending');

  const swept = await live.liveQr(15000, { expiry_minutes: 1 });
  clock.advance(2 * 60_000);
  await expireOverduePayments(live.server.running.runtime.services);
  expect((await paymentOf(swept.paymentId)).status).toBe('expired');
  const sweptTransaction = await payAndSettle({ qr_data: swept.qrData });
  expect((await paymentOf(swept.paymentId)).status).toBe('expired');

  const reasons = new Map((await unmatched()).map((u) => [u.transactionId, u.reason]));
  expect(reasons.get(lateTransaction.transactionId)).toBe('payment_expired');
  expect(reasons.get(sweptTransaction.transactionId)).toBe('payment_not_pending');
});

it('the count of unmatched transactions matches the list', async () => {
  const repos = live.server.running.runtime.services.uow.repos.bankTransactions;
  expect(await repos.countUnmatched()).toBe((await unmatched()).length);
  expect(await repos.countUnmatched()).toBeGreaterThanOrEqual(4);
  expect(bankSettings.billerId).toMatch(/^\d{15}$/);
});
