import { readFileSync } from 'node:fs';
import Mustache from 'mustache';
import type { Checkout } from '../../app/checkout.js';
import { timeLeft } from '../pages/formatting.js';
import { formatBaht } from '../pages/people-formats.js';
import { messages, type Language } from './messages.js';

const template = (name: string): string => readFileSync(new URL(`./templates/${name}.html`, import.meta.url), 'utf8');
const pageTemplate = template('page');
const notFoundTemplate = template('not-found');
Mustache.parse(pageTemplate);
Mustache.parse(notFoundTemplate);

/** Money that does not fit is named whatever the status, so the customer never reads "waiting for payment" after paying. */
const unmatchedText = (lang: Language, amounts: readonly number[]): string => messages[lang].unmatched.replace('{amount}', amounts.map(formatBaht).join(' + '));

function statusTextOf(checkout: Checkout, lang: Language): string {
  const t = messages[lang];
  const unmatched = checkout.unmatchedAmounts.length > 0 ? unmatchedText(lang, checkout.unmatchedAmounts) : null;
  if (checkout.status !== 'succeeded') return unmatched ?? t[checkout.status];
  return [t.succeeded, unmatched, checkout.returnTo ? t.redirecting : null].filter(Boolean).join(' ');
}

/** "I have paid" on a pending page: its form's token, and what the last slip sent came to (`kind` styles it). */
export interface SlipForm {
  csrfToken: string;
  message?: { kind: 'verdict' | 'refused'; text: string };
}

/**
 * The whole page, server-rendered: merchant, amount, reference and status are there before any script runs. A
 * pending page offers `slip` ("I have paid") when given one.
 */
export function renderCheckoutPage(checkout: Checkout, lang: Language, now: Date, slip: SlipForm | null = null): string {
  const t = messages[lang];
  const unmatched = checkout.unmatchedAmounts.length > 0;
  return Mustache.render(pageTemplate, {
    lang,
    otherLang: lang === 'th' ? 'en' : 'th',
    t,
    qrCodeId: checkout.qrCodeId,
    merchantName: checkout.merchantName,
    amount: formatBaht(checkout.amount),
    reference: checkout.reference,
    status: checkout.status,
    statusClass: unmatched ? 'unmatched' : checkout.status,
    statusText: statusTextOf(checkout, lang),
    pending: checkout.status === 'pending',
    showQr: checkout.status === 'pending' && !unmatched,
    slip: checkout.status === 'pending' ? slip : null,
    unmatchedAmounts: checkout.unmatchedAmounts.join(','),
    succeeded: checkout.status === 'succeeded',
    redirectNow: checkout.status === 'succeeded' && checkout.returnTo !== null,
    returnTo: checkout.returnTo,
    expiresAt: checkout.expiresAt.toISOString(),
    remaining: timeLeft(checkout.expiresAt, now),
    // In both languages, the page's own first: a customer about to pay must not miss it.
    testBanner: checkout.testMode ? [lang, lang === 'th' ? 'en' : 'th'].map((code) => ({ lang: code, ...messages[code as Language] })) : [],
  });
}

export const renderNotFoundPage = (lang: Language): string => Mustache.render(notFoundTemplate, { lang, t: messages[lang] });
