import { expire } from '../domain/payment.js';
import { savePaymentState } from './payment-state.js';
import type { Services } from './services.js';

const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** One sweep: pending payments past expiry become expired (with their events); forgotten idempotency keys go. */
export async function expireOverduePayments(s: Services, batchSize = 200): Promise<number> {
  const now = s.clock.now();
  const expired = await s.uow.run(async (tx) => {
    const overdue = await tx.payments.lockOverduePending(now, batchSize);
    for (const payment of overdue) await savePaymentState(tx, s, expire(payment, now));
    return overdue.length;
  });
  await s.uow.repos.idempotency.purgeOlderThan(new Date(now.getTime() - IDEMPOTENCY_LIFETIME_MS));
  return expired;
}

export const idempotencyLifetimeMs = IDEMPOTENCY_LIFETIME_MS;
