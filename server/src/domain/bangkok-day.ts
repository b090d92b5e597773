/** Asia/Bangkok is UTC+07:00 all year (no daylight saving): a calendar day there is fixed in UTC. */
const BANGKOK_OFFSET = '+07:00';

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
// A time of day within its ranges, and an offset or Z (a date-time without one would depend on where it is read).
const TIME_WITH_OFFSET = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const midnight = CALENDAR_DATE.test(text) ? new Date(`${text}T00:00:00.000Z`) : null;
  return midnight !== null && !Number.isNaN(midnight.getTime()) && midnight.toISOString().slice(0, 10) === text;
}

/** The first millisecond of a calendar day in Bangkok: 2026-11-24 starts at 2026-11-23T17:00:00.000Z. */
export const bangkokDayStart = (date: string): Date => new Date(`${date}T00:00:00.000${BANGKOK_OFFSET}`);

/** The last millisecond of a calendar day in Bangkok: 2026-11-24 ends at 2026-11-24T16:59:59.999Z. */
export const bangkokDayEnd = (date: string): Date => new Date(`${date}T23:59:59.999${BANGKOK_OFFSET}`);

/**
 * One end of an inclusive date filter: a date is a calendar day in Bangkok (a start from its first millisecond, an
 * end through its last); a date-time is taken as given and needs an offset or Z. Null when it is neither.
 */
export function dateFilterBound(text: string, edge: 'start' | 'end'): Date | null {
  if (isCalendarDate(text)) return edge === 'start' ? bangkokDayStart(text) : bangkokDayEnd(text);
  if (!isCalendarDate(text.slice(0, 10)) || !TIME_WITH_OFFSET.test(text.slice(10))) return null;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/** The wall-clock time in Bangkok, as spreadsheets read it: `2026-11-27 18:15:46`. */
export const bangkokDateTimeOf = (at: Date): string => new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

/** The calendar day in Bangkok at an instant: 2026-11-24T17:30:00Z is 2026-11-25 there. */
export const bangkokDateOf = (at: Date): string => new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 10);

/** The calendar date `days` after (or before, when negative) a YYYY-MM-DD date. */
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
