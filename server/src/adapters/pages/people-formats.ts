/**
 * How every page writes a moment and an amount for people: one formatter for the checkout page and the dashboard.
 * Times are Asia/Bangkok; Thai reads `27 พ.ย. 2569 18:15` (Thai month abbreviations, Buddhist-era year), English
 * `27 Nov 2026 18:15`. Amounts are baht: `฿1,299.00`.
 */
export type PageLanguage = 'th' | 'en';

const BANGKOK = 'Asia/Bangkok';

// en-US for the English month names: en-GB writes September `Sept`; the parts are put in the same order for both.
const dateTimeFormats: Record<PageLanguage, Intl.DateTimeFormat> = {
  th: new Intl.DateTimeFormat('th-TH-u-ca-buddhist', {
    timeZone: BANGKOK,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }),
  en: new Intl.DateTimeFormat('en-US', {
    timeZone: BANGKOK,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }),
};

function partsOf(lang: PageLanguage, at: Date): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  const parts = Object.fromEntries(dateTimeFormats[lang].formatToParts(at).map((part) => [part.type, part.value]));
  return { day: parts.day ?? '', month: parts.month ?? '', year: parts.year ?? '', hour: parts.hour ?? '', minute: parts.minute ?? '' };
}

/** A moment in Bangkok: `27 พ.ย. 2569 18:15` / `27 Nov 2026 18:15`. */
export function formatDateTime(lang: PageLanguage, at: Date): string {
  const p = partsOf(lang, at);
  return `${p.day} ${p.month} ${p.year} ${p.hour}:${p.minute}`;
}

/** The Bangkok day of a moment: `27 พ.ย. 2569` / `27 Nov 2026`. */
export function formatDate(lang: PageLanguage, at: Date): string {
  const p = partsOf(lang, at);
  return `${p.day} ${p.month} ${p.year}`;
}

/** A Bangkok calendar day written `2026-11-27`, as people read it (`27 พ.ย. 2569`; `27 พ.ย.` without its year). */
export function formatCalendarDate(lang: PageLanguage, day: string, options: { year: boolean } = { year: true }): string {
  const p = partsOf(lang, new Date(`${day}T12:00:00+07:00`));
  return options.year ? `${p.day} ${p.month} ${p.year}` : `${p.day} ${p.month}`;
}

const monthFormats: Record<PageLanguage, Intl.DateTimeFormat> = {
  th: new Intl.DateTimeFormat('th-TH-u-ca-buddhist', { timeZone: BANGKOK, month: 'long', year: 'numeric' }),
  en: new Intl.DateTimeFormat('en-US', { timeZone: BANGKOK, month: 'long', year: 'numeric' }),
};

/** A Bangkok calendar month written `2026-11`, as people read it: `พฤศจิกายน 2569` / `November 2026`. */
export function formatMonth(lang: PageLanguage, month: string): string {
  const parts = Object.fromEntries(monthFormats[lang].formatToParts(new Date(`${month}-15T12:00:00+07:00`)).map((part) => [part.type, part.value]));
  return `${parts.month ?? ''} ${parts.year ?? ''}`;
}

/** Satang as people read it: ฿1,500.00 (a minus sign in front of a debit). */
export function formatBaht(satang: number): string {
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  return `${sign}฿${Math.trunc(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
