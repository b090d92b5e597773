import type { DeliveryStatus } from './webhook.js';

/** What one delivery attempt got back from the merchant's endpoint. */
export type AttemptOutcome =
  | { kind: 'answered'; status: number }
  | { kind: 'no_answer'; error: string } // time-out, refused connection, TLS failure
  | { kind: 'refused_url'; error: string }; // the URL no longer passes the address check

/** A delivery's state once an attempt is over. */
export interface AttemptResult {
  status: DeliveryStatus;
  lastResponseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  /** The endpoint answered 410 Gone: the merchant wants nothing more sent there. */
  disableWebhook: boolean;
}

/**
 * The first attempt happens when the event is recorded; `scheduleMs[n - 1]` is the wait after the n-th failed
 * attempt, so a schedule of k delays allows k + 1 attempts. null: no attempt is left.
 */
export function retryDelayMs(attemptsMade: number, scheduleMs: readonly number[]): number | null {
  return scheduleMs[attemptsMade - 1] ?? null;
}

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

function errorOf(outcome: AttemptOutcome): string | null {
  if (outcome.kind !== 'answered') return outcome.error;
  if (isSuccess(outcome.status)) return null;
  if (outcome.status >= 300 && outcome.status < 400) return `The endpoint answered ${outcome.status}; redirects are not followed.`;
  if (outcome.status === 410) return 'The endpoint answered 410 Gone; the webhook is disabled.';
  return `The endpoint answered ${outcome.status}; only a 2xx counts as delivered.`;
}

/** Decides what an attempt means: delivered on a 2xx, disabled on a 410, otherwise retried until the schedule runs out. */
export function settleAttempt(outcome: AttemptOutcome, attemptsMade: number, scheduleMs: readonly number[], now: Date): AttemptResult {
  const lastResponseStatus = outcome.kind === 'answered' ? outcome.status : null;
  const lastError = errorOf(outcome);
  if (outcome.kind === 'answered' && isSuccess(outcome.status)) {
    return { status: 'delivered', lastResponseStatus, lastError, nextAttemptAt: null, deliveredAt: now, disableWebhook: false };
  }
  if (outcome.kind === 'answered' && outcome.status === 410) {
    return { status: 'failed', lastResponseStatus, lastError, nextAttemptAt: null, deliveredAt: null, disableWebhook: true };
  }
  const delay = retryDelayMs(attemptsMade, scheduleMs);
  return delay === null
    ? { status: 'failed', lastResponseStatus, lastError, nextAttemptAt: null, deliveredAt: null, disableWebhook: false }
    : { status: 'pending', lastResponseStatus, lastError, nextAttemptAt: new Date(now.getTime() + delay), deliveredAt: null, disableWebhook: false };
}

/**
 * What an attempt leaves when a redelivery was asked for while it was in flight: due at once, so the event goes
 * out again right after it (never beside it), whatever the attempt got. A 410 still wins: nothing more goes there.
 */
export function redeliveryAfter(result: AttemptResult, now: Date): AttemptResult {
  if (result.disableWebhook) return result;
  return { ...result, status: 'pending', nextAttemptAt: now, deliveredAt: null };
}
