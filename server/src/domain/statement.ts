import { bangkokDateOf, bangkokDayStart } from './bangkok-day.js';
import type { LedgerEntryType } from './balance.js';
import type { Currency, Satang } from './money.js';

/** A calendar month in Asia/Bangkok, written YYYY-MM. */
export type Month = string;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const isMonth = (text: string): boolean => MONTH.test(text);

/** The month after: 2026-12 -> 2027-01. */
export function nextMonth(month: Month): Month {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** The month before: 2027-01 -> 2026-12. */
export function previousMonth(month: Month): Month {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/** A month's instants in Bangkok: from its first millisecond up to (not including) the next month's. */
export const monthPeriod = (month: Month): { start: Date; end: Date } => ({
  start: bangkokDayStart(`${month}-01`),
  end: bangkokDayStart(`${nextMonth(month)}-01`),
});

/**
 * Ledger entries are written at the time they happen, and one in flight at midnight commits moments later: a month is
 * closed (its statement final, its PDF kept) this long after it ends in Bangkok, as tax invoices wait too.
 */
export const MONTH_CLOSING_MS = 10 * 60_000;

/** Whether the month ended in Bangkok, and its closing time passed: its statement never changes again. */
export const isMonthClosed = (month: Month, now: Date): boolean => monthPeriod(month).end.getTime() + MONTH_CLOSING_MS <= now.getTime();

/** The calendar month in Bangkok at an instant: 2026-10-31T17:00:00Z is 2026-11 there. */
export const bangkokMonthOf = (at: Date): Month => bangkokDateOf(at).slice(0, 7);

/** The month's ledger entries of one type, summed (amounts signed as in the ledger). */
export interface LedgerTotals {
  type: LedgerEntryType;
  count: number;
  amount: Satang;
  fee: Satang;
  feeVat: Satang;
  net: Satang;
}

/** Money that moved, as a positive amount, and how many ledger entries moved it. */
export interface Movement {
  count: number;
  amount: Satang;
}

/**
 * A merchant's month: closing = opening + payments.gross - fees - feeVat - refunds - withdrawals + reversals, and
 * closing - opening is the sum of the month's ledger entries (their `net`). Balances are available + pending.
 */
export interface MonthlyStatement {
  merchantId: string;
  month: Month;
  currency: Currency;
  periodStart: Date;
  periodEnd: Date;
  openingBalance: Satang;
  payments: { count: number; gross: Satang };
  fees: Satang;
  feeVat: Satang;
  refunds: Movement;
  withdrawals: Movement;
  /** Failed withdrawals and failed refunds giving their money back. */
  reversals: Movement;
  closingBalance: Satang;
}

const sumOf = (totals: readonly LedgerTotals[], types: readonly LedgerEntryType[]) => {
  const picked = totals.filter((t) => types.includes(t.type));
  return {
    count: picked.reduce((n, t) => n + t.count, 0),
    amount: picked.reduce((n, t) => n + t.amount, 0),
    fee: picked.reduce((n, t) => n + t.fee, 0),
    feeVat: picked.reduce((n, t) => n + t.feeVat, 0),
  };
};

/** The statement from the balance before the month and the month's entries; a ledger whose lines do not add up is refused. */
export function monthlyStatement(merchantId: string, month: Month, openingBalance: Satang, totals: readonly LedgerTotals[]): MonthlyStatement {
  const payments = sumOf(totals, ['payment']);
  const all = sumOf(totals, ['payment', 'refund', 'withdrawal', 'withdrawal_reversal', 'refund_reversal']);
  const refunds = sumOf(totals, ['refund']);
  const withdrawals = sumOf(totals, ['withdrawal']);
  const reversals = sumOf(totals, ['withdrawal_reversal', 'refund_reversal']);
  const netOfEntries = totals.reduce((n, t) => n + t.net, 0);
  const statement: MonthlyStatement = {
    merchantId,
    month,
    currency: 'THB',
    ...(({ start, end }) => ({ periodStart: start, periodEnd: end }))(monthPeriod(month)),
    openingBalance,
    payments: { count: payments.count, gross: payments.amount },
    fees: all.fee,
    feeVat: all.feeVat,
    refunds: { count: refunds.count, amount: 0 - refunds.amount },
    withdrawals: { count: withdrawals.count, amount: 0 - withdrawals.amount },
    reversals: { count: reversals.count, amount: reversals.amount },
    closingBalance: openingBalance + netOfEntries,
  };
  if (movementOf(statement) !== netOfEntries) {
    throw new Error(`the ${month} ledger of ${merchantId} does not add up: its lines say ${movementOf(statement)} satang, its entries' net ${netOfEntries}`);
  }
  return statement;
}

/** What the statement's lines add up to: closing - opening. */
export const movementOf = (s: MonthlyStatement): Satang => s.payments.gross - s.fees - s.feeVat - s.refunds.amount - s.withdrawals.amount + s.reversals.amount;

/** The statement's lines as they move the balance (signed), for a file a spreadsheet can sum (0 - x: never a -0). */
export function statementLines(s: MonthlyStatement): { line: string; count: number | null; amount: Satang }[] {
  return [
    { line: 'opening_balance', count: null, amount: s.openingBalance },
    { line: 'payments', count: s.payments.count, amount: s.payments.gross },
    { line: 'fees', count: null, amount: 0 - s.fees },
    { line: 'fee_vat', count: null, amount: 0 - s.feeVat },
    { line: 'refunds', count: s.refunds.count, amount: 0 - s.refunds.amount },
    { line: 'withdrawals', count: s.withdrawals.count, amount: 0 - s.withdrawals.amount },
    { line: 'reversals', count: s.reversals.count, amount: s.reversals.amount },
    { line: 'closing_balance', count: null, amount: s.closingBalance },
  ];
}
