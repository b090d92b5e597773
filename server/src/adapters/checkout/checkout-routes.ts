import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type Request, type Response } from 'express';
import helmet from 'helmet';
import { retrieveCheckout, retrieveCheckoutState, type CheckoutState } from '../../app/checkout.js';
import type { Services } from '../../app/services.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { Language } from './messages.js';
import { renderCheckoutPage, renderNotFoundPage } from './page.js';
import type { CheckoutStatusHub } from './status-hub.js';
import { streamPlaces } from '../../domain/stream-places.js';

/** Where the page is served: checkout_url is {PUBLIC_BASE_URL}/Thai/pay/{qr_code_id}. */
export const CHECKOUT_BASE = '/Thai/pay';

const HEARTBEAT_MS = 25_000;
/** Status streams one client address may hold open at once (beyond: 429). */
export const MAX_STREAMS_PER_ADDRESS = 20;

export interface CheckoutOptions {
  /** A status stream ends after this long even if the payment is still pending (the page's EventSource reconnects). */
  streamLifetimeMs: number;
}
const assetsDir = fileURLToPath(new URL('./assets/', import.meta.url));
const fontDir = dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-thai/package.json'));

/** Everything the page uses comes from this origin: no inline script, no third-party font or script. */
const strictHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
});

/** An id no QR code can have is simply unknown, before it reaches the database. */
const plausibleId = (id: string): boolean => /^[A-Za-z0-9_-]{1,100}$/.test(id);

function languageOf(req: Request): Language {
  const asked = req.query.lang;
  if (asked === 'en' || asked === 'th') return asked;
  return req.acceptsLanguages('th', 'en') === 'en' ? 'en' : 'th';
}

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
  router.use('/assets/fonts', express.static(fontDir, { index: false, maxAge: '7d' }));
  router.use('/assets', express.static(assetsDir, { index: false, maxAge: '1h' }));

  router.get('/:qr_code_id', async (req, res) => {
    const id = String(req.params.qr_code_id);
    const lang = languageOf(req);
    res.set({ 'Cache-Control': 'no-store', Vary: 'Accept-Language' });
    try {
      if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
      res.type('html').send(renderCheckoutPage(await retrieveCheckout(s, id), lang, s.clock.now()));
    } catch (error) {
      if (!isUnknown(error)) throw error;
      res.status(404).type('html').send(renderNotFoundPage(lang));
    }
  });

  router.get('/:qr_code_id/status', async (req, res) => {
    const id = String(req.params.qr_code_id);
    if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
    res.set('Cache-Control', 'no-store').json(statusBody(await retrieveCheckoutState(s, id)));
  });

  const streams = new Set<Response>();
  const places = streamPlaces(MAX_STREAMS_PER_ADDRESS);
  let heartbeat: NodeJS.Timeout | undefined;
  router.get('/:qr_code_id/events', async (req, res) => {
    const id = String(req.params.qr_code_id);
    if (!plausibleId(id)) throw notFound('qr_code_not_found', id);
    const release = places.take(req.socket.remoteAddress ?? '', (seconds) => res.setHeader('Retry-After', String(seconds)));
    let open = false;
    let last = '';
    const send = (state: CheckoutState) => {
      const data = JSON.stringify(statusBody(state));
      if (!open || data === last) return;
      last = data;
      res.write(`event: status\ndata: ${data}\n\n`);
      if (state.status !== 'pending') end(); // the page closes its EventSource on a final status
    };
    // Watch first, then read: a change committed in between is not missed.
    const unwatch = await hub.watch(id, send).catch((error: unknown) => {
      release();
      throw error;
    });
    const state = await retrieveCheckoutState(s, id).catch((error: unknown) => {
      unwatch();
      release();
      throw error;
    });
    const stopOnClose = hub.endOnClose(() => end());
    const lifetime = setTimeout(() => end(), options.streamLifetimeMs).unref();
    function end() {
      if (!open) return;
      open = false;
      clearTimeout(lifetime);
      unwatch();
      stopOnClose();
      release();
      streams.delete(res);
      if (streams.size === 0) clearInterval(heartbeat);
      res.end();
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.write('retry: 3000\n\n');
    open = true;
    streams.add(res);
    // One timer for every open stream keeps idle proxies from cutting them.
    if (streams.size === 1) heartbeat = setInterval(() => streams.forEach((stream) => stream.write(': keep-alive\n\n')), HEARTBEAT_MS).unref();
    res.on('close', end); // the page went away
    if (req.socket.destroyed) return end(); // ... already, while its status was read
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
