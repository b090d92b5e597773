import { describe, expect, it } from 'vitest';
import { formatBaht, formatCalendarDate, formatDate, formatDateTime, formatMonth } from '../../src/adapters/pages/people-formats.js';

const thaiMonths = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.'];
const englishMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('dates and amounts as the pages write them', () => {
  it('writes a moment in Bangkok: Thai month abbreviations and the Buddhist-era year, or English', () => {
    const at = new Date('2026-11-27T11:15:46Z');
    expect(formatDateTime('th', at)).toBe('27 พ.ย. 2569 18:15');
    expect(formatDateTime('en', at)).toBe('27 Nov 2026 18:15');
    expect(formatDate('th', at)).toBe('27 พ.ย. 2569');
    expect(formatDate('en', at)).toBe('27 Nov 2026');
  });

  it('names every month, at midnight and just before it in Bangkok, on the Bangkok day', () => {
    for (let month = 0; month < 12; month++) {
      const midnight = new Date(Date.UTC(2027, month, 1, -7, 0)); // 00:00 on the 1st in Bangkok: still the day before in UTC
      expect(formatDateTime('th', midnight)).toBe(`1 ${thaiMonths[month]} 2570 00:00`);
      expect(formatDateTime('en', midnight)).toBe(`1 ${englishMonths[month]} 2027 00:00`);
      const late = new Date(midnight.getTime() - 60_000);
      expect(formatDateTime('en', late)).toMatch(/^\d{2} [A-Z][a-z]{2} 202[67] 23:59$/);
    }
  });

  it('writes a Bangkok calendar day and amounts in baht', () => {
    expect(formatCalendarDate('th', '2026-01-05')).toBe('5 ม.ค. 2569');
    expect(formatCalendarDate('en', '2026-09-30')).toBe('30 Sep 2026');
    expect(formatBaht(129_900)).toBe('฿1,299.00');
    expect(formatBaht(1)).toBe('฿0.01');
    expect(formatBaht(-9_380)).toBe('-฿93.80');
    expect(formatBaht(100_000_150)).toBe('฿1,000,001.50');
  });

  it('writes a calendar month in words: the Thai month and the Buddhist-era year, or English', () => {
    expect(formatMonth('th', '2026-11')).toBe('พฤศจิกายน 2569');
    expect(formatMonth('en', '2026-11')).toBe('November 2026');
    expect(formatMonth('th', '2027-01')).toBe('มกราคม 2570');
    expect(formatMonth('en', '2026-09')).toBe('September 2026');
  });
});
