import { bahtText } from '../../domain/tax-invoice.js';

const BANGKOK_MS = 7 * 3_600_000;

/** A moment as people in Thailand read it: `2026-11-24 19:05` in Asia/Bangkok (UTC+07:00 all year). */
export const bangkokTime = (at: Date): string => new Date(at.getTime() + BANGKOK_MS).toISOString().slice(0, 16).replace('T', ' ');

/** Satang as baht: 123456 -> 1,234.56. */
export const baht = bahtText;

/** A list page's position, `?offset=` as sent when it is a whole number, else the start. */
export function offsetOf(text: unknown): number {
  const value = typeof text === 'string' && /^\d{1,7}$/.test(text) ? Number(text) : 0;
  return value;
}
