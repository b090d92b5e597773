import { redeliveryAfter, settleAttempt, type AttemptOutcome, type AttemptResult } from '../domain/delivery-schedule.js';
import { MAX_IN_FLIGHT_PER_MERCHANT, merchantsAtShare } from '../domain/delivery-fairness.js';
import { DomainError } from '../domain/errors.js';
import { signingSecrets } from '../domain/webhook-management.js';
import type { ClaimedDelivery } from '../ports/webhook-delivery.js';
import type { Services } from './services.js';

/** Long enough for a DNS check, a send that runs into its time-out, and recording the result (WEBHOOK_LEASE_MARGIN_MS). */
export const leaseMsFor = (timeoutMs: number, marginMs: number): number => 2 * timeoutMs + marginMs;

/**
 * Takes up to `limit` due deliveries for this dispatcher alone. Given what it has in flight per merchant, no merchant
 * gets more than its share, so one merchant's hanging endpoints never take every slot.
 */
export const claimDueDeliveries = (s: Services, limit: number, inFlight?: ReadonlyMap<string, number>): Promise<ClaimedDelivery[]> =>
  s.webhooks.queue.claimDue(
    s.clock.now(),
    limit,
    leaseMsFor(s.webhooks.timeoutMs, s.webhooks.leaseMarginMs),
    inFlight && { perMerchant: MAX_IN_FLIGHT_PER_MERCHANT, inFlight },
  );

/** When a claim could next find work, leaving out the merchants whose share is in flight. */
export const nextDeliveryDueAt = (s: Services, inFlight: ReadonlyMap<string, number>): Promise<Date | null> =>
  s.webhooks.queue.nextDueAt(merchantsAtShare({ perMerchant: MAX_IN_FLIGHT_PER_MERCHANT, inFlight }));

async function sendOnce(s: Services, delivery: ClaimedDelivery): Promise<AttemptOutcome> {
  let target;
  try {
    // Checked again at every attempt: the host's DNS may have changed since registration.
    target = await s.webhooks.urlGuard.assertDeliverable(delivery.url);
  } catch (error) {
    if (error instanceof DomainError) return { kind: 'refused_url', error: error.message };
    throw error;
  }
  const secrets = signingSecrets(delivery.secret, delivery.earlierSecrets);
  const headers = s.webhooks.signer.headersFor(secrets, delivery.eventId, s.clock.now(), delivery.payload);
  return s.webhooks.sender.send({ target, headers, body: delivery.payload, timeoutMs: s.webhooks.timeoutMs });
}

/** One attempt: check the URL, sign, send outside any transaction, then record what it means. */
export async function attemptDelivery(s: Services, delivery: ClaimedDelivery): Promise<AttemptResult> {
  const outcome = await sendOnce(s, delivery);
  const now = s.clock.now();
  const result = settleAttempt(outcome, delivery.attempt, s.webhooks.retryScheduleMs, now);
  return (await s.webhooks.queue.recordAttempt(delivery, result, redeliveryAfter(result, now))) ?? result;
}

/** One dispatch pass: every due delivery up to `limit`, attempted concurrently. Returns how many were attempted. */
export async function deliverDueWebhooks(s: Services, limit = 100): Promise<number> {
  const claimed = await claimDueDeliveries(s, limit);
  const settled = await Promise.allSettled(claimed.map((delivery) => attemptDelivery(s, delivery)));
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  return claimed.length;
}
