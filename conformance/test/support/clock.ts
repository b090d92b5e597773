import type { Clock } from '../../../server/src/ports/clock.js';

/** A clock the check moves by hand (a port of the service): several records can share one creation time. */
export function manualClock(start: Date): Clock & { set(at: Date): void } {
  let now = start.getTime();
  return { now: () => new Date(now), set: (at) => void (now = at.getTime()) };
}
