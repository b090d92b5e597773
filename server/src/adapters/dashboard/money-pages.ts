import type { Request } from 'express';
import { bangkokDayEnd, bangkokDayStart, isCalendarDate } from '../../domain/bangkok-day.js';
import { DomainError } from '../../domain/errors.js';
import type { DateRange, PageRequest } from '../../domain/page.js';
import type { LiveStreamOptions } from './live-stream.js';
import { fill, moneyMessages, type MoneyWords } from './money-messages.js';
import { refusalText } from './refusal-words.js';
import { signedIn } from './request-context.js';

/** What the money pages (Home, Payments, Balance, Audit log) share: reading a request, paging, the member. */
export interface MoneyPagesOptions extends LiveStreamOptions {
  /** PUBLIC_BASE_URL (null: the origin the request was sent to), for the checkout link of a pending payment. */
  publicBaseUrl: string | null;
}

export const PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 50;
/** Rows a CSV download holds at most (newest first): a file per filtered period, not the whole history at once. */
export const CSV_MAX_ROWS = 10_000;
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** ?page=N (1 = newest) as an offset; nonsense is the first page. */
export function pageOf(req: Request, limit: number): PageRequest & { number: number } {
  const asked = Number(text(req.query.page));
  const number = Number.isSafeInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  return { limit, offset: (number - 1) * limit, number };
}

/** from / to as Bangkok days; a wrong date is named, and left out of the filter. */
export function dateRangeOf(req: Request, t: MoneyWords): { range: DateRange; problem: string | null } {
  const range: DateRange = {};
  const wrong: string[] = [];
  const from = text(req.query.from);
  const to = text(req.query.to);
  if (from && isCalendarDate(from)) range.startDate = bangkokDayStart(from);
  else if (from) wrong.push(from);
  if (to && isCalendarDate(to)) range.endDate = bangkokDayEnd(to);
  else if (to) wrong.push(to);
  return { range, problem: wrong.length > 0 ? fill(t.badFilter, { problem: wrong.join(', ') }) : null };
}

/** Newer / older links that keep the page's other query parameters. */
export function pager(req: Request, path: string, page: { number: number }, more: boolean) {
  const link = (n: number) => {
    const query = new URLSearchParams(
      Object.entries(req.query).flatMap(([k, v]) => (typeof v === 'string' && k !== 'page' && k !== 'fragment' ? [[k, v]] : [])),
    );
    if (n > 1) query.set('page', String(n));
    const qs = query.toString();
    return qs ? `${path}?${qs}` : path;
  };
  const newer = page.number > 1 ? link(page.number - 1) : null;
  const older = more ? link(page.number + 1) : null;
  return newer || older ? { newer, older } : null;
}

export const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T | undefined =>
  (allowed as readonly unknown[]).includes(value) ? (value as T) : undefined;

/** Home, Payments (list, search, a payment's page, refunds, test helpers), Balance (ledger, CSV, withdrawals) and the audit log. */
export const wordsOf = (req: Request): MoneyWords => moneyMessages[req.lang ?? 'th'];

export function memberOf(req: Request) {
  const { merchant, membership } = signedIn(req);
  return { merchant, role: membership.role };
}

/** Every form of the session carries its CSRF token (the shell checks it on every POST). */
export const formOf = (req: Request) => ({ csrfName: '_csrf', csrfToken: req.csrfToken ?? '' });

export const formBody = (req: Request): Record<string, unknown> => (req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {});

/** A refusal of the domain, said on the page in its language and in baht; anything else is a fault. */
export function problemOf(t: MoneyWords, error: unknown): string {
  if (error instanceof DomainError) return refusalText(t.lang, error);
  throw error;
}

/** A form's once-only key: what `formKey` makes. */
export const isFormKey = (key: string): boolean => /^[A-Za-z0-9_-]{16,64}$/.test(key);
