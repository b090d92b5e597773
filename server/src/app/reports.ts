import { bangkokDayEnd, bangkokDayStart, isCalendarDate } from '../domain/bangkok-day.js';
import { DomainError } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import { isMonth, isMonthClosed, monthlyStatement, monthPeriod, type MonthlyStatement } from '../domain/statement.js';
import type { LedgerFilter } from '../ports/ledger.js';
import type { SettlementLine } from '../ports/reports.js';
import type { Services } from './services.js';

export function assertMonth(month: string): void {
  if (!isMonth(month)) throw new DomainError('invalid_parameters', `month '${month}' must be a calendar month written YYYY-MM (2026-10).`, 'month');
}

/** The merchant's statement for a calendar month in Bangkok, reconciled with the ledger to the satang. */
export async function statementFor(s: Services, merchant: Merchant, month: string): Promise<MonthlyStatement> {
  assertMonth(month);
  const { start, end } = monthPeriod(month);
  // Entries are written at the time they happen, so none can join the opening while this reads: the two reads agree.
  const opening = await s.uow.repos.reports.balanceBefore(merchant.id, start);
  return monthlyStatement(merchant.id, month, opening, await s.uow.repos.reports.totalsBetween(merchant.id, start, end));
}

/** Every ledger entry of one calendar day in Bangkok, oldest first, with its payment's reference: for accounting imports. */
export async function settlementFile(s: Services, merchant: Merchant, date: string): Promise<SettlementLine[]> {
  if (!isCalendarDate(date)) throw new DomainError('invalid_parameters', `date '${date}' must be a calendar date written YYYY-MM-DD (2026-10-31).`, 'date');
  return s.uow.repos.reports.linesBetween(merchant.id, bangkokDayStart(date), new Date(bangkokDayEnd(date).getTime() + 1));
}

/**
 * The month's statement as a PDF, for the dashboard's download. A month under way is rendered on each request (its
 * statement still changes); a closed month's is rendered once and kept, so every download is the same bytes (and a
 * burst of downloads costs one render).
 */
export async function statementPdf(s: Services, merchant: Merchant, month: string): Promise<Uint8Array> {
  assertMonth(month);
  const now = s.clock.now();
  const render = async () => s.statementPdf.render(await statementFor(s, merchant, month), merchant.name, isMonthClosed(month, now) ? null : now);
  if (!isMonthClosed(month, now)) return render();
  const { reports } = s.uow.repos;
  const kept = await reports.keptStatementPdf(merchant.id, month);
  if (kept) return kept;
  await reports.keepStatementPdf(merchant.id, month, await render(), s.clock.now());
  const first = await reports.keptStatementPdf(merchant.id, month); // another download may have kept its render first
  if (!first) throw new Error(`the ${month} statement PDF of ${merchant.id} was not kept`);
  return first;
}

/** The most entries one ledger file holds: a spreadsheet's comfort, and a bound on one request's work. */
export const LEDGER_FILE_MAX_ROWS = 100_000;
const LEDGER_FILE_PART = 1_000;

/**
 * Every ledger entry the filter matches, oldest first with their payments' references, in parts of a thousand read one
 * after the other (so a long range is written as it is read). A range of more than LEDGER_FILE_MAX_ROWS entries is
 * refused before anything is written.
 */
export async function ledgerFile(s: Services, merchant: Merchant, filter: LedgerFilter): Promise<AsyncIterable<SettlementLine[]>> {
  const { reports } = s.uow.repos;
  if ((await reports.countMatching(merchant.id, filter, LEDGER_FILE_MAX_ROWS + 1)) > LEDGER_FILE_MAX_ROWS) {
    throw new DomainError(
      'range_too_large',
      `The range holds more than ${LEDGER_FILE_MAX_ROWS.toLocaleString('en-US')} ledger entries, more than one file takes: ask for a shorter date range.`,
      'start_date',
    );
  }
  return {
    async *[Symbol.asyncIterator]() {
      for (let after: SettlementLine | null = null; ; ) {
        const lines = await reports.linesMatching(merchant.id, filter, after, LEDGER_FILE_PART);
        if (lines.length > 0) yield lines;
        if (lines.length < LEDGER_FILE_PART) return;
        after = lines.at(-1)!;
      }
    },
  };
}
