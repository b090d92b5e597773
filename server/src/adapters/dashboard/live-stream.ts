import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { streamPlaces } from '../../domain/stream-places.js';
import type { MerchantPaymentFeed } from './payment-feed.js';

const HEARTBEAT_MS = 25_000;
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
  const streams = new Set<Response>();
  const places = streamPlaces(MAX_LIVE_STREAMS_PER_ADDRESS);
  let heartbeat: NodeJS.Timeout | undefined;
  return async (req, res) => {
    let release: () => void;
    try {
      release = places.take(req.socket.remoteAddress ?? '', (seconds) => res.setHeader('Retry-After', String(seconds)));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return void res.status(429).type('text/plain').send(error.message); // the page's EventSource tries again later
    }
    let open = false;
    const unwatch = await feed
      .watch(merchantOf(req), () => {
        if (open) res.write('event: change\ndata: {}\n\n');
      })
      .catch((error: unknown) => {
        release();
        throw error;
      });
    const stopOnClose = feed.endOnClose(() => end());
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
    if (streams.size === 1) heartbeat = setInterval(() => streams.forEach((stream) => stream.write(': keep-alive\n\n')), HEARTBEAT_MS).unref();
    res.on('close', end);
    if (req.socket.destroyed) end();
  };
}
