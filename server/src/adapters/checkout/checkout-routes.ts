import { fileURLToPath } from 'node:url';
import { Router, type Request } from 'express';
import { retrieveCheckout, retrieveCheckoutState, type CheckoutState } from '../../app/checkout.js';
import { verifyCheckoutSlip } from '../../app/checkout-slips.js';
import type { Services } from '../../app/services.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { eventStreams } from '../pages/event-streams.js';
import { pageAssets } from '../pages/page-assets.js';
import { pageBody } from '../pages/page-body.js';
import { pageLanguage } from '../pages/language.js';
import { pageHeaders } from '../pages/page-headers.js';
import { slipSent } from '../pages/slip-upload.js';
import { messages, type Language } from './messages.js';
import { renderCheckoutPage, renderNotFoundPage, type SlipForm } from './page.js';
import { slipFormTokens } from './slip-form-token.js';
import type { CheckoutStatusHub } from './status-hub.js';

/** Where the page is served: checkout_url is {PUBLIC_BASE_URL}/Thai/pay/{qr_code_id}. */
export const CHECKOUT_BASE = '/Thai/pay';

/** Status streams one client address may hold open at once (beyond: 429). */
export const MAX_STREAMS_PER_ADDRESS = 20;

export interface CheckoutOptions {
  /** A status stream ends after this long even if the payment is still pending (the page's EventSource reconnects). */
  streamLifetimeMs: number;
  /** How long a body may take to arrive once reading starts (REQUEST_BODY_TIMEOUT_MS, as the API's); then 408. */
  requestBodyTimeoutMs: number;
  /** PUBLIC_BASE_URL is https: the slip form's cookie is `__Host-` and Secure. */
  secureCookies: boolean;
}

/** The largest body the checkout reads but a slip's photo (at most 2 MiB, ../pages/slip-upload.ts). */
export const MAX_CHECKOUT_BODY_BYTES = 16 * 1024;
const assetsDir = fileURLToPath(new URL('./assets/', import.meta.url));

/** The page's one form posts here, and it tells no other site which QR code it shows. */
const strictHeaders = pageHeaders({ formAction: "'self'", referrerPolicy: 'no-referrer', strictTransportSecurity: true });
const SLIP_PATH = /^\/[A-Za-z0-9_-]{1,100}\/slip$/;

/** An id no QR code can have is simply unknown, before it reaches the database. */
const plausibleId = (id: string): boolean => /^[A-Za-z0-9_-]{1,100}$/.test(id);

const languageOf = (req: Request): Language => pageLanguage(req);

const statusBody = (state: CheckoutState) => ({
  status: state.status,
  expires_at: state.expiresAt.toISOString(),
  ...(state.unmatchedAmounts.length > 0 ? { unmatched_amounts: state.unmatchedAmounts } : {}),
});

const isUnknown = (error: unknown): boolean => error instanceof DomainError && error.code === 'qr_code_not_found';

/** The customer's side: the checkout page, its status (polled) and its status stream (server-sent events). */
export function checkoutRoutes(s: Services, hub: CheckoutStatusHub, options: CheckoutOptions): Router {
  const router = Router();
  router.use(strictHeaders);
  router.use(pageAssets(assetsDir));
  // Whatever is sent, read within the deadline (408) and the size (413), answered in the error envelope.
  router.use(
    pageBody(
      { timeoutMs: options.requestBodyTimeoutMs, maxBytes: MAX_CHECKOUT_BODY_BYTES, takesSlipPhoto: (req) => SLIP_PATH.test(req.path) },
      (_req, _res, next, error) => next(error),
    ),
  );
  const formTokens = slipFormTokens(s.accounts.tokens, options.secureCookies);

  router.get('/:qr_code_id', async (req, res) => {
    const id = String(req.params.qr_code_id);
    const lang = languageOf(req);
    res.set({ 'Cache-Control': 'no-store', Vary: 'Accept-Language' });
    try {
      if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
      const checkout = await retrieveCheckout(s, id);
      const slip = checkout.status === 'pending' ? { csrfToken: formTokens.tokenFor(req, res) } : null;
      res.type('html').send(renderCheckoutPage(checkout, lang, s.clock.now(), slip));
    } catch (error) {
      if (!isUnknown(error)) throw error;
      res.status(404).type('html').send(renderNotFoundPage(lang));
    }
  });

  // "I have paid": the slip of a pending payment, 5 tries per payment (and the pages' per-address limit, app.ts).
  router.post('/:qr_code_id/slip', async (req, res) => {
    const id = String(req.params.qr_code_id);
    if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
    const lang = languageOf(req);
    const t = messages[lang];
    res.set({ 'Cache-Control': 'no-store', Vary: 'Accept-Language' });
    const answer = async (status: number, message: SlipForm['message']) => {
      const checkout = await retrieveCheckout(s, id);
      if (checkout.status !== 'pending') return res.redirect(303, `${CHECKOUT_BASE}/${id}?lang=${lang}`);
      res
        .status(status)
        .type('html')
        .send(renderCheckoutPage(checkout, lang, s.clock.now(), { csrfToken: formTokens.tokenFor(req, res), message }));
    };
    const refused = (status: number, text: string) => answer(status, { kind: 'refused', text });
    if (!formTokens.carries(req)) return refused(403, t.slipFormExpired);
    const slip = slipSent(req);
    if (slip === 'nothing') return refused(422, t.slipNothing);
    if (slip === 'too_large') return refused(413, t.slipTooLarge);
    const outcome = await verifyCheckoutSlip(s, id, slip);
    const left = (triesLeft: number) => t.slipTriesLeft.replace('{count}', String(triesLeft));
    if (outcome.kind === 'not_pending') return answer(200, undefined);
    if (outcome.kind === 'no_tries_left') return refused(429, t.slipNoTriesLeft);
    if (outcome.kind === 'refused') {
      const text = outcome.code in t.slipRefusals ? t.slipRefusals[outcome.code as keyof typeof t.slipRefusals] : t.slipRefusals.other;
      return refused(outcome.code === 'service_unavailable' ? 503 : 422, `${text} ${left(outcome.triesLeft)}`);
    }
    await answer(200, {
      kind: 'verdict',
      text: outcome.status === 'verified' ? t.slipVerdicts.verified : `${t.slipVerdicts[outcome.status]} ${left(outcome.triesLeft)}`,
    });
  });

  router.get('/:qr_code_id/status', async (req, res) => {
    const id = String(req.params.qr_code_id);
    if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
    res.set('Cache-Control', 'no-store').json(statusBody(await retrieveCheckoutState(s, id)));
  });

  const streams = eventStreams(hub, { perAddress: MAX_STREAMS_PER_ADDRESS, lifetimeMs: options.streamLifetimeMs });
  router.get('/:qr_code_id/events', async (req, res) => {
    const id = String(req.params.qr_code_id);
    if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
    const stream = streams.take(req, res);
    let last = '';
    const send = (state: CheckoutState) => {
      const data = JSON.stringify(statusBody(state));
      if (data === last || !stream.send('status', data)) return;
      last = data;
      if (state.status !== 'pending') stream.end(); // the page closes its EventSource on a final status
    };
    const state = await stream.begin(
      () => hub.watch(id, send),
      () => retrieveCheckoutState(s, id), // read after watching: a change committed in between is not missed
    );
    send(state);
  });

  // Anything else under /Thai/pay is no page of ours (and not the API's either).
  router.use((req, res) => {
    res
      .status(404)
      .type('html')
      .send(renderNotFoundPage(languageOf(req)));
  });
  return router;
}
