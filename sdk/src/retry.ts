/** What one attempt of a request ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'connection_failed' }
  | { kind: 'timeout' }
  | { kind: 'response'; status: number; code?: string | undefined; retryAfter?: string | null | undefined };

export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** A Retry-After beyond this is not waited out inside a call: the error goes back to the caller. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Whether to send the request again after `retriesSoFar` retries. Every POST carries one Idempotency-Key
 * for all its attempts, so a retry never does the work twice: the server replays the stored result.
 */
export function shouldRetry(outcome: AttemptOutcome, retriesSoFar: number, maxRetries: number): boolean {
  // The caller's budget comes first.
  if (retriesSoFar >= maxRetries) return false;
  // No answer: the request may or may not have reached the server; the same key makes resending safe.
  if (outcome.kind === 'connection_failed') return true;
  // No answer in time: as above; the first attempt, if it ran, is replayed or answers idempotency_key_in_use.
  if (outcome.kind === 'timeout') return true;
  const { status, code } = outcome;
  // The first request with this key is still running: asking again later gets its result.
  if (status === 409) return code === 'idempotency_key_in_use';
  // (409 idempotency_key_reused falls above: the key belongs to a different request, so no retry can succeed.)
  // Rate limited: wait as told, unless told to wait longer than a call should block.
  if (status === 429) {
    const wait = retryAfterMs(outcome.retryAfter);
    return wait === undefined || wait <= MAX_RETRY_AFTER_MS;
  }
  // The body did not reach the server in time (408 request_timeout): nothing was done, safe to resend.
  if (status === 408) return true;
  // Our failure (500 internal_error, 503 service_unavailable, a proxy's 502/504): not stored, safe to resend.
  if (status >= 500) return true;
  // Any other 4xx is a verdict on the request itself (or 402, a card refusal): resending changes nothing.
  return false;
}

/**
 * Milliseconds to wait before retry number `retriesSoFar + 1`: exponential back-off from 0.5 s capped at
 * 8 s, with jitter (between half and all of it) so that many clients do not retry in step; never less
 * than a readable Retry-After.
 */
export function retryDelayMs(outcome: AttemptOutcome, retriesSoFar: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2 ** retriesSoFar);
  const jittered = exponential * (0.5 + random() / 2);
  const serverWait = outcome.kind === 'response' ? retryAfterMs(outcome.retryAfter) : undefined;
  return Math.round(Math.max(jittered, serverWait ?? 0));
}
