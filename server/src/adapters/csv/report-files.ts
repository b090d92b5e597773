import type { LedgerEntry } from '../../domain/balance.js';
import { statementLines, type MonthlyStatement } from '../../domain/statement.js';
import type { SettlementLine } from '../../ports/reports.js';
import { csvFile } from './csv-file.js';

/** The monthly statement as a spreadsheet sums it: one signed line each, `month,line,count,amount,currency`. */
export function statementCsv(statement: MonthlyStatement): string {
  const rows = statementLines(statement).map((l) => [statement.month, l.line, l.count, l.amount, statement.currency]);
  return csvFile(['month', 'line', 'count', 'amount', 'currency'], rows, { byteOrderMark: true });
}

/** The ledger's CSV columns: the JSON fields of an entry. */
export const LEDGER_CSV_COLUMNS = [
  'balance_transaction_id',
  'type',
  'amount',
  'fee',
  'fee_vat',
  'net',
  'currency',
  'source_id',
  'withdrawal_id',
  'available_on',
  'created_at',
] as const;

/** Ledger entries as the ledger's CSV (the dashboard's download): the same columns as the API's `format=csv`. */
export function ledgerCsv(entries: readonly LedgerEntry[]): string {
  const rows = entries.map((e) => [
    e.id,
    e.type,
    e.amount,
    e.fee,
    e.feeVat,
    e.net,
    e.currency,
    e.sourceId,
    e.withdrawalId,
    e.availableOn.toISOString(),
    e.createdAt.toISOString(),
  ]);
  return csvFile(LEDGER_CSV_COLUMNS, rows, { byteOrderMark: true });
}

/** A settlement file: the ledger CSV's columns and then the payment's `reference`. */
export const SETTLEMENT_COLUMNS = [...LEDGER_CSV_COLUMNS, 'reference'] as const;

/** A day's settlement file: every ledger entry of the day, oldest first, for accounting imports. */
export function settlementCsv(lines: readonly SettlementLine[]): string {
  const rows = lines.map((l) => [
    l.id,
    l.type,
    l.amount,
    l.fee,
    l.feeVat,
    l.net,
    l.currency,
    l.sourceId,
    l.withdrawalId,
    l.availableOn.toISOString(),
    l.createdAt.toISOString(),
    l.reference,
  ]);
  return csvFile(SETTLEMENT_COLUMNS, rows, { byteOrderMark: true });
}
