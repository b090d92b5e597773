import { stringify } from 'csv-stringify/sync';

/** A cell: text (defused if a spreadsheet would run it), a number (written as is, a minus sign included), or empty. */
export type CsvCell = string | number | null;

/** Columns named `..._baht` hold baht: written with two decimals (`6153.40`, `-50.00`), as numbers, never defused. */
const isBahtColumn = (name: string | undefined): boolean => name?.endsWith('_baht') ?? false;

/**
 * The one writer of every CSV the service hands out: RFC 4180 quoting, CRLF line ends, a header line, and
 * OWASP's defence against formula injection (a text cell starting with = + - @ tab or CR gets a leading ').
 * `byteOrderMark` is for files meant for spreadsheets (Excel reads Thai right only with it), not for banks' parsers.
 * `header: false` writes rows only, for a file written in parts after its first.
 */
export function csvFile(
  columns: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  options: { byteOrderMark?: boolean; header?: boolean } = {},
): string {
  return stringify(
    rows.map((row) => row.map((cell) => cell ?? '')),
    {
      header: options.header ?? true,
      columns: [...columns],
      record_delimiter: 'windows',
      escape_formulas: true,
      bom: (options.byteOrderMark ?? false) && (options.header ?? true),
      cast: { number: (value, context) => (isBahtColumn(columns[context.index]) ? value.toFixed(2) : String(value)) },
    },
  );
}

/** Satang as baht, for a `..._baht` column. */
export const bahtOf = (satang: number): number => satang / 100;
