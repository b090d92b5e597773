/** How many failed sign-ins within a window lock out what they were counted for, and for how long. */
export interface FailureLimit {
  failures: number;
  windowMs: number;
  lockMs: number;
}

/** 5 failures for one account within 15 minutes lock it for 15 minutes. */
export const ACCOUNT_FAILURE_LIMIT: FailureLimit = { failures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
/** One client address trying many accounts: 20 failures within 15 minutes stop it for 15 minutes. */
export const ADDRESS_FAILURE_LIMIT: FailureLimit = { failures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/**
 * Until when sign-in is refused, given the failures counted (any order), or null. The lock starts at the failure that
 * made `failures` within the window and lasts `lockMs`; attempts refused while locked are not failures, so a lock
 * ends on time and the next failure starts a new count.
 */
export function lockedUntil(failures: readonly Date[], limit: FailureLimit, now: Date): Date | null {
  if (failures.length < limit.failures) return null;
  const latest = Math.max(...failures.map((at) => at.getTime()));
  const inWindow = failures.filter((at) => at.getTime() > latest - limit.windowMs).length;
  if (inWindow < limit.failures) return null;
  const until = latest + limit.lockMs;
  return until > now.getTime() ? new Date(until) : null;
}

/** How far back failures matter for the limits above. */
export const FAILURES_LOOKBACK_MS = Math.max(
  ACCOUNT_FAILURE_LIMIT.windowMs + ACCOUNT_FAILURE_LIMIT.lockMs,
  ADDRESS_FAILURE_LIMIT.windowMs + ADDRESS_FAILURE_LIMIT.lockMs,
);
