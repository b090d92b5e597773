import type { Request } from 'express';
import { dateFilterBound } from '../../domain/bangkok-day.js';
import { DomainError } from '../../domain/errors.js';
import type { DateRange, PageRequest } from '../../domain/page.js';

const invalid = (param: string, message: string) => new DomainError('invalid_parameters', message, param);

function integerParam(req: Request, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(name, `${name} must be an integer from ${min} to ${max}.`);
  return value;
}

/** `limit` 1..100 (default 20) and `offset` >= 0 (default 0). */
export const pageRequestOf = (req: Request): PageRequest => ({
  limit: integerParam(req, 'limit', 20, 1, 100),
  offset: integerParam(req, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
});

function dateBound(req: Request, name: 'start_date' | 'end_date'): Date | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  const bound = dateFilterBound(String(raw), name === 'start_date' ? 'start' : 'end');
  if (!bound) {
    throw invalid(
      name,
      `${name} must be a date (2026-11-20, a day in Asia/Bangkok) or a date-time with an offset or Z (2026-11-20T08:15:30Z, 2026-11-20T15:15:30%2B07:00: + written %2B).`,
    );
  }
  return bound;
}

/** Inclusive `start_date` and `end_date`; a range that ends before it starts is refused. */
export function dateRangeOf(req: Request): DateRange {
  const startDate = dateBound(req, 'start_date');
  const endDate = dateBound(req, 'end_date');
  if (startDate && endDate && startDate > endDate) throw invalid('start_date', 'start_date must not be after end_date.');
  return { ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) };
}

export function enumParam<T extends string>(req: Request, name: string, allowed: readonly T[]): T | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) throw invalid(name, `${name} must be one of: ${allowed.join(', ')}.`);
  return raw as T;
}
