import { expire, expiryDueAt, LIVE_EXPIRY_GRACE_MS } from '../domain/payment.js';
import { BankUnavailableError } from '../ports/bank.js';
import type { OverdueLivePayment } from '../ports/repositories.js';
import { applyWhatTheBankLists, inBatches } from './bank-payments.js';
import { savePaymentState } from './payment-state.js';
import type { Services } from './services.js';

const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const BANK_CONCURRENCY = 8;

/**
 * One sweep: pending payments past expiry become expired (with their events); forgotten idempotency keys go.
 * A test payment expires at `expires_at`. A live one only a grace period later, and only once the bank, asked about
 * its ref1, lists no money that settles it: what the bank lists is applied first, so money paid in time is never lost.
 */
export async function expireOverduePayments(s: Services, batchSize = 200): Promise<number> {
  const now = s.clock.now();
  const expired = await s.uow.run(async (tx) => {
    const overdue = await tx.payments.lockOverdueTestPayments(now, batchSize);
    for (const payment of overdue) await savePaymentState(tx, s, expire(payment, now));
    return overdue.length;
  });
  const expiredLive = await expireOverdueLivePayments(s, now, batchSize);
  await s.uow.repos.idempotency.purgeOlderThan(new Date(now.getTime() - IDEMPOTENCY_LIFETIME_MS));
  return expired + expiredLive;
}

/** No row is locked while the bank is asked: inquire first, then expire in a short transaction that checks again. */
async function expireOverdueLivePayments(s: Services, now: Date, batchSize: number): Promise<number> {
  const bank = s.bankConnection;
  const overdue = await s.uow.repos.payments.overdueLivePayments(new Date(now.getTime() - LIVE_EXPIRY_GRACE_MS), batchSize);
  // Without a bank connection nothing can say whether they were paid: they wait for one.
  if (!bank || overdue.length === 0) return 0;
  let expired = 0;
  await inBatches(overdue, BANK_CONCURRENCY, async (payment) => {
    try {
      await applyWhatTheBankLists(s, bank, payment, now);
    } catch (error) {
      if (!(error instanceof BankUnavailableError)) throw error;
      return false; // the bank is down: the rest wait for the next sweep too
    }
    if (await expireUnlessSettled(s, payment, now)) expired++;
  });
  return expired;
}

async function expireUnlessSettled(s: Services, { merchantId, paymentId }: OverdueLivePayment, now: Date): Promise<boolean> {
  return s.uow.run(async (tx) => {
    const payment = await tx.payments.findById(merchantId, paymentId, { lock: true });
    if (payment?.status !== 'pending' || !payment.expiresAt || expiryDueAt(payment.expiresAt, 'live') > now) return false;
    await savePaymentState(tx, s, expire(payment, now));
    return true;
  });
}

export const idempotencyLifetimeMs = IDEMPOTENCY_LIFETIME_MS;
