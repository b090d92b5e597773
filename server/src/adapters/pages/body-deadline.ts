import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../../domain/errors.js';

export interface BodyDeadline {
  /** The body arrived (or the request ended otherwise): the deadline no longer applies. */
  stop(): void;
  /** Whether the deadline passed first; the request has been answered through `expired` then. */
  passed(): boolean;
}

const NO_BODY: BodyDeadline = { stop: () => undefined, passed: () => false };

/**
 * A request body must arrive within `ms` of the service starting to read it. If it does not, `expired` gets the 408
 * request_timeout to answer with, and the answer closes the connection: what is left of the body would otherwise be
 * read as the next request. Both lanes of the API (../http/json-body.ts, ../http/hot-routes.ts) and the pages (./page-body.ts) start it where they start reading.
 */
export function startBodyDeadline(req: IncomingMessage, res: ServerResponse, ms: number, expired: (error: DomainError) => void): BodyDeadline {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
  if (!hasBody || req.complete) return NO_BODY;
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    res.setHeader('Connection', 'close');
    expired(new DomainError('request_timeout', `The request body did not arrive within ${ms / 1000} s. Send it again, in one go.`));
  }, ms);
  const stop = () => clearTimeout(timer);
  req.once('close', stop);
  return { stop, passed: () => passed };
}

/**
 * The deadline for a body no route read: an answer may go out before the body has arrived (401 before the key's route,
 * 405, 404, a page refusing), and Node then reads the rest on the open connection however slowly it trickles in. Such
 * a body gets the same time to arrive, counted from the answer; then the connection is cut. Set on every request.
 */
export function cutUnreadBody(req: IncomingMessage, res: ServerResponse, ms: number): void {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    const timer = setTimeout(() => req.socket.destroy(), ms);
    timer.unref();
    const stop = () => clearTimeout(timer);
    req.once('end', stop);
    req.socket.once('close', stop);
  });
}
