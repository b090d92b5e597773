import { fileURLToPath } from 'node:url';
import { Router, type Request } from 'express';
import { tillDisplay } from '../../app/till-counter.js';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import { serveChime } from '../pages/chime.js';
import { eventStreams, type EventStream } from '../pages/event-streams.js';
import { pageAssets } from '../pages/page-assets.js';
import { pageLanguage } from '../pages/language.js';
import { pageHeaders } from '../pages/page-headers.js';
import type { TillDisplayHub } from './display-hub.js';
import { renderDisplayNotFound, renderDisplayPage, stateBody } from './display-page.js';
import type { Language } from './messages.js';

export { DISPLAY_BASE } from './display-page.js';

/** Display streams one client address may hold open at once (beyond: 429), as the checkout page's. */
export const MAX_DISPLAY_STREAMS_PER_ADDRESS = 20;

const assetsDir = fileURLToPath(new URL('./assets/', import.meta.url));

/** No forms, and the URL is the secret: no other site is told it. */
const strictHeaders = pageHeaders({ formAction: "'none'", referrerPolicy: 'no-referrer', strictTransportSecurity: true });

/** A token no till can have is unknown before it reaches the database. */
const plausibleToken = (token: string): boolean => /^[A-Za-z0-9_-]{16,100}$/.test(token);

const languageOf = (req: Request): Language => pageLanguage(req);

/** The customer display of a till: the page, and its stream of the till's state (server-sent events). */
export function tillDisplayRoutes(s: Services, hub: TillDisplayHub, options: { streamLifetimeMs: number }): Router {
  const router = Router();
  router.use(strictHeaders);
  router.use(pageAssets(assetsDir));
  router.get('/assets/chime.wav', serveChime);

  const notFound = (req: Request, res: import('express').Response) =>
    res
      .status(404)
      .type('html')
      .send(renderDisplayNotFound(languageOf(req)));

  router.get('/:token', async (req, res) => {
    const token = String(req.params.token);
    res.set({ 'Cache-Control': 'no-store', Vary: 'Accept-Language' });
    const display = plausibleToken(token) ? await tillDisplay(s, token) : null;
    if (!display) return void notFound(req, res);
    res.type('html').send(renderDisplayPage(display, token, languageOf(req), s.clock.now()));
  });

  const streams = eventStreams(hub, { perAddress: MAX_DISPLAY_STREAMS_PER_ADDRESS, lifetimeMs: options.streamLifetimeMs });
  router.get('/:token/events', async (req, res) => {
    const token = String(req.params.token);
    const first = plausibleToken(token) ? await tillDisplay(s, token) : null;
    if (!first) return void res.status(404).type('text/plain').send('No such display.'); // EventSource stops; the page reloads
    let stream: EventStream;
    try {
      stream = streams.take(req, res);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return void res.status(429).type('text/plain').send(error.message);
    }
    let last = '';
    const send = (body: object) => {
      const data = JSON.stringify(body);
      if (data !== last && stream.send('state', data)) last = data;
    };
    // Each change re-reads the till by this display's token: a closed till or a rolled URL ends the stream.
    let reading = Promise.resolve();
    const reread = () => {
      reading = reading.then(async () => {
        try {
          const now = await tillDisplay(s, token);
          if (!now) {
            stream.send('gone', '{}');
            return stream.end();
          }
          send(stateBody(now.state));
        } catch {
          stream.end(); // the page reconnects and reads afresh
        }
      });
    };
    await stream.begin(() => hub.watch(first.till.id, reread));
    send(stateBody(first.state));
    reread(); // a change between the first read and the watch is not missed
  });

  router.use((req, res) => notFound(req, res));
  return router;
}
