import { stringify } from 'csv-stringify/sync';

/** A cell: text (defused if a spreadsheet would run it), a number (written as is, a minus sign included), or empty. */
export type CsvCell = string | number | null;

/**
 * The one writer of every CSV the service hands out: RFC 4180 quoting, CRLF line ends, a header line, and
 * OWASP's defence against formula injection (a text cell starting with = + - @ tab or CR gets a leading ').
 * `byteOrderMark` is for files meant for spreadsheets (Excel reads Thai right only with it), not for banks' parsers.
 */
export function csvFile(columns: readonly string[], rows: readonly (readonly CsvCell[])[], options: { byteOrderMark?: boolean } = {}): string {
  return stringify(
    rows.map((row) => row.map((cell) => cell ?? '')),
    { header: true, columns: [...columns], record_delimiter: 'windows', escape_formulas: true, bom: options.byteOrderMark ?? false },
  );
}
