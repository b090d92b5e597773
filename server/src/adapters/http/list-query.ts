import type { Request } from 'express';
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

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function dateBound(req: Request, name: 'start_date' | 'end_date'): Date | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  const text = String(raw);
  // A bare date covers the whole UTC day: start_date from its first millisecond, end_date to its last.
  const iso = DATE_ONLY.test(text) ? `${text}T${name === 'start_date' ? '00:00:00.000' : '23:59:59.999'}Z` : DATE_TIME.test(text) ? text : null;
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime()) || (DATE_ONLY.test(text) && date.toISOString().slice(0, 10) !== text)) {
    throw invalid(name, `${name} must be an ISO 8601 date (2026-11-20) or date-time (2026-11-20T08:15:30Z).`);
  }
  return date;
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
