import type { Request, Response } from 'express';
import { streamPlaces } from '../../domain/stream-places.js';
import { clientAddress } from './client-address.js';

const HEARTBEAT_MS = 25_000;

/** What a page's stream follows: a hub of the payment changes that ends its streams when it closes. */
export interface StreamSource {
  /** Registers a stream's `end`, called when the source closes; returns the function that unregisters it. */
  endOnClose(end: () => void): () => void;
}

export interface StreamBounds {
  /** Streams one client address may hold open at once (beyond: a DomainError, with Retry-After set). */
  perAddress: number;
  /** A stream ends after this long even if nothing happened (the page's EventSource reconnects). */
  lifetimeMs: number;
}

/** One page's stream of server-sent events. */
export interface EventStream {
  /**
   * Watches (`watch` returns how to stop), then reads with `read` (watch first, then read: a change committed in
   * between is not missed), then begins the stream; returns what `read` read. Nothing is sent before it begins.
   */
  begin(watch: () => Promise<() => void>): Promise<void>;
  begin<T>(watch: () => Promise<() => void>, read: () => Promise<T>): Promise<T>;
  /** Writes one event; false, writing nothing, before the stream has begun or once it has ended. */
  send(event: string, data: string): boolean;
  /** Ends the stream (once): stops watching, gives its place back, closes the answer. */
  end(): void;
}

/**
 * The server-sent event streams of one kind of page, bounded per client address and in lifetime: each ends when its
 * page goes away, after its lifetime, when its source closes, or when told to.
 */
export function eventStreams(source: StreamSource, bounds: StreamBounds) {
  const streams = new Set<Response>();
  const places = streamPlaces(bounds.perAddress);
  let heartbeat: NodeJS.Timeout | undefined;

  /** Takes a place for the request's client address (beyond the bound: a DomainError) for a stream not yet begun. */
  function take(req: Request, res: Response): EventStream {
    const release = places.take(clientAddress(req), (seconds) => res.setHeader('Retry-After', String(seconds)));
    let open = false;
    let stop = () => {};

    function begin(watch: () => Promise<() => void>): Promise<void>;
    function begin<T>(watch: () => Promise<() => void>, read: () => Promise<T>): Promise<T>;
    async function begin<T>(watch: () => Promise<() => void>, read?: () => Promise<T>): Promise<T | undefined> {
      const unwatch = await watch().catch((error: unknown) => {
        release();
        throw error;
      });
      const value = read
        ? await read().catch((error: unknown) => {
            unwatch();
            release();
            throw error;
          })
        : undefined;
      const stopOnClose = source.endOnClose(end);
      const lifetime = setTimeout(end, bounds.lifetimeMs).unref();
      stop = () => {
        clearTimeout(lifetime);
        unwatch();
        stopOnClose();
        release();
      };
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
      res.write('retry: 3000\n\n');
      open = true;
      streams.add(res);
      // One timer for every open stream keeps idle proxies from cutting them.
      if (streams.size === 1) heartbeat = setInterval(() => streams.forEach((stream) => stream.write(': keep-alive\n\n')), HEARTBEAT_MS).unref();
      res.on('close', end); // the page went away
      if (req.socket.destroyed) end(); // ... already, while it was being watched
      return value;
    }

    function end() {
      if (!open) return;
      open = false;
      stop();
      streams.delete(res);
      if (streams.size === 0) clearInterval(heartbeat);
      res.end();
    }

    const send = (event: string, data: string): boolean => {
      if (!open) return false;
      res.write(`event: ${event}\ndata: ${data}\n\n`);
      return true;
    };
    return { begin, send, end };
  }

  return { take };
}
