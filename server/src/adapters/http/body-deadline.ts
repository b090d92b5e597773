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
 * read as the next request. Both lanes (./json-body.ts, ./hot-routes.ts) start it where they start reading.
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
