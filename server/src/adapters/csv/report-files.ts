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
  return csvFile(LEDGER_CSV_COLUMNS, entries.map(ledgerCells), { byteOrderMark: true });
}

type LedgerFields = 'id' | 'type' | 'amount' | 'fee' | 'feeVat' | 'net' | 'currency' | 'sourceId' | 'withdrawalId' | 'availableOn' | 'createdAt';

/** An entry's cells under LEDGER_CSV_COLUMNS. */
const ledgerCells = (e: Pick<LedgerEntry, LedgerFields>) => [
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
];

/** A settlement file: the ledger CSV's columns and then the payment's `reference`. */
export const SETTLEMENT_COLUMNS = [...LEDGER_CSV_COLUMNS, 'reference'] as const;

/** A day's settlement file: every ledger entry of the day, oldest first, for accounting imports. */
export function settlementCsv(lines: readonly SettlementLine[]): string {
  return csvFile(
    SETTLEMENT_COLUMNS,
    lines.map((line) => [...ledgerCells(line), line.reference]),
    { byteOrderMark: true },
  );
}
