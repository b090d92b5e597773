import { readFileSync } from 'node:fs';
import Mustache from 'mustache';
import type { TillDisplay, TillDisplayState } from '../../app/till-counter.js';
import { timeLeft } from '../pages/formatting.js';
import { formatBaht } from '../pages/people-formats.js';
import { messages, type Language } from './messages.js';

/** Where the customer displays are served: display_url is {PUBLIC_BASE_URL}/Thai/tills/display/{token}. */
export const DISPLAY_BASE = '/Thai/tills/display';

const template = (name: string): string => readFileSync(new URL(`./templates/${name}.html`, import.meta.url), 'utf8');
const displayTemplate = template('display');
const notFoundTemplate = template('not-found');
Mustache.parse(displayTemplate);
Mustache.parse(notFoundTemplate);

const qrImage = (qrCodeId: string) => `/Thai/qr-codes/${qrCodeId}/image?format=svg`;

/** The state as the display's script reads it (its stream sends the same). */
export const stateBody = (state: TillDisplayState) => ({
  pending: state.pending && {
    payment_id: state.pending.paymentId,
    amount: state.pending.amount,
    qr_image: qrImage(state.pending.qrCodeId),
    expires_at: state.pending.expiresAt.toISOString(),
  },
  latest: state.latest && { payment_id: state.latest.paymentId, status: state.latest.status, amount: state.latest.amount },
});

/** The whole display, server-rendered: the names, and the static QR or the pending payment's, before any script runs. */
export function renderDisplayPage(display: TillDisplay, token: string, lang: Language, now: Date): string {
  const { till, state } = display;
  return Mustache.render(displayTemplate, {
    lang,
    otherLang: lang === 'th' ? 'en' : 'th',
    t: messages[lang],
    base: DISPLAY_BASE,
    token,
    merchantName: display.merchantName,
    tillName: till.name,
    view: state.pending ? 'pending' : 'idle',
    idle: !state.pending,
    stateJson: JSON.stringify(stateBody(state)),
    staticQrImage: qrImage(till.staticQr.qrCodeId),
    pending: state.pending && {
      amount: formatBaht(state.pending.amount),
      qrImage: qrImage(state.pending.qrCodeId),
      expiresAt: state.pending.expiresAt.toISOString(),
      remaining: timeLeft(state.pending.expiresAt, now),
    },
    // In both languages, the page's own first: a customer about to pay must not miss it.
    testBanner: display.testMode ? [lang, lang === 'th' ? 'en' : 'th'].map((code) => ({ lang: code, ...messages[code as Language] })) : [],
  });
}

export const renderDisplayNotFound = (lang: Language): string => Mustache.render(notFoundTemplate, { lang, t: messages[lang], base: DISPLAY_BASE });
