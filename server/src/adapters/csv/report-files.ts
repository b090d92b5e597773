import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { bangkokDateTimeOf } from '../../domain/bangkok-day.js';
import { statementLines, type MonthlyStatement } from '../../domain/statement.js';
import type { SettlementLine } from '../../ports/reports.js';
import { bahtOf, csvFile } from './csv-file.js';

/** The monthly statement as a spreadsheet sums it: one signed line each, its amount in satang and in baht. */
export function statementCsv(statement: MonthlyStatement): string {
  const rows = statementLines(statement).map((l) => [statement.month, l.line, l.count, l.amount, bahtOf(l.amount), statement.currency]);
  return csvFile(['month', 'line', 'count', 'amount', 'amount_baht', 'currency'], rows, { byteOrderMark: true });
}

/**
 * The ledger's CSV columns: the JSON fields of an entry, each amount in satang followed by the same in baht and each
 * time (UTC) by its Bangkok wall-clock time, and the `reference` of the payment the entry concerns. The settlement
 * file has the same columns.
 */
export const LEDGER_CSV_COLUMNS = [
  'balance_transaction_id',
  'type',
  'amount',
  'amount_baht',
  'fee',
  'fee_baht',
  'fee_vat',
  'fee_vat_baht',
  'net',
  'net_baht',
  'currency',
  'source_id',
  'reference',
  'withdrawal_id',
  'available_on',
  'available_on_bangkok',
  'created_at',
  'created_at_bangkok',
] as const;

/** An entry's cells under LEDGER_CSV_COLUMNS. */
const ledgerCells = (e: SettlementLine) => [
  e.id,
  e.type,
  e.amount,
  bahtOf(e.amount),
  e.fee,
  bahtOf(e.fee),
  e.feeVat,
  bahtOf(e.feeVat),
  e.net,
  bahtOf(e.net),
  e.currency,
  e.sourceId,
  e.reference,
  e.withdrawalId,
  e.availableOn.toISOString(),
  bangkokDateTimeOf(e.availableOn),
  e.createdAt.toISOString(),
  bangkokDateTimeOf(e.createdAt),
];

/**
 * Ledger lines as the ledger's CSV (the API's `format=csv`, the dashboard's download and the settlement file): the
 * first part carries the byte-order mark and the header; later parts (`first: false`) only rows, so a long range is
 * written as it is read.
 */
export function ledgerCsv(lines: readonly SettlementLine[], part: { first: boolean } = { first: true }): string {
  return csvFile(LEDGER_CSV_COLUMNS, lines.map(ledgerCells), { byteOrderMark: true, header: part.first });
}

/** Writes a ledger file's parts to a response as they come, heeding its back-pressure; a file of no entries is its header. */
export async function writeLedgerCsv(parts: AsyncIterable<readonly SettlementLine[]>, out: Writable): Promise<void> {
  let first = true;
  for await (const lines of parts) {
    if (!out.write(ledgerCsv(lines, { first }))) await once(out, 'drain');
    first = false;
  }
  if (first) out.write(ledgerCsv([]));
  out.end();
}

/** A day's settlement file: every ledger entry of the day, oldest first, for accounting imports. */
export const settlementCsv = (lines: readonly SettlementLine[]): string => ledgerCsv(lines);
