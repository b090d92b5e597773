import type { Request, RequestHandler } from 'express';
import { DomainError } from '../../domain/errors.js';
import { eventStreams, type EventStream } from '../pages/event-streams.js';
import type { MerchantPaymentFeed } from './payment-feed.js';

/** Live streams one client address may hold open at once (beyond: 429), as on the checkout page. */
export const MAX_LIVE_STREAMS_PER_ADDRESS = 20;

export interface LiveStreamOptions {
  /** A stream ends after this long (the page's EventSource reconnects), as the checkout page's do. */
  streamLifetimeMs: number;
}

/**
 * Server-sent events telling an open dashboard page that one of its merchant's payments changed: the page then
 * fetches its server-rendered fragment again. Bounded per client address and in lifetime like the checkout's streams.
 */
export function liveStream(feed: MerchantPaymentFeed, merchantOf: (req: Request) => string, options: LiveStreamOptions): RequestHandler {
  const streams = eventStreams(feed, { perAddress: MAX_LIVE_STREAMS_PER_ADDRESS, lifetimeMs: options.streamLifetimeMs });
  return async (req, res) => {
    let stream: EventStream;
    try {
      stream = streams.take(req, res);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return void res.status(429).type('text/plain').send(error.message); // the page's EventSource tries again later
    }
    await stream.begin(() => feed.watch(merchantOf(req), () => stream.send('change', '{}')));
  };
}
