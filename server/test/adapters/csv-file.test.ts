import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvFile } from '../../src/adapters/csv/csv-file.js';

describe('csvFile: the one CSV writer', () => {
  const columns = ['name', 'amount', 'note'] as const;

  it('quotes per RFC 4180, ends every line with CRLF, and defuses text that a spreadsheet would run', () => {
    const text = csvFile(columns, [
      ['=1+2', -5000, 'a "quoted", two-line\r\nnote'],
      ['+1', 0, '-2'],
      ['@SUM(A1)', 15000, '\tTAB'],
      ['\rCR', null, 'ข้าวมันไก่ ร้านป้า'],
    ]);
    expect(text.split('\r\n')[0]).toBe('name,amount,note');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parse(text, { columns: true })).toEqual([
      { name: "'=1+2", amount: '-5000', note: 'a "quoted", two-line\r\nnote' },
      { name: "'+1", amount: '0', note: "'-2" },
      { name: "'@SUM(A1)", amount: '15000', note: "'\tTAB" },
      { name: "'\rCR", amount: '', note: 'ข้าวมันไก่ ร้านป้า' },
    ]);
  });

  it('starts with a UTF-8 byte-order mark only when asked (spreadsheets, not banks)', () => {
    expect(csvFile(columns, [], { byteOrderMark: true })).toBe('\uFEFFname,amount,note\r\n');
    expect(csvFile(columns, [])).toBe('name,amount,note\r\n');
  });
});
