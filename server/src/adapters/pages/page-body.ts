import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { DomainError } from '../../domain/errors.js';
import { startBodyDeadline } from './body-deadline.js';
import { isMultipart, readSlipUpload } from './slip-upload.js';

export interface PageBodyLimits {
  /** How long a body may take to arrive once reading starts (REQUEST_BODY_TIMEOUT_MS, as the API's); then 408. */
  timeoutMs: number;
  /** The largest body read, in bytes; beyond it 413. */
  maxBytes: number;
  /** The routes that take a slip photo (`multipart/form-data`, ./slip-upload.ts), read there instead. */
  takesSlipPhoto?: (req: Request) => boolean;
}

/**
 * How a page answers a body it will not wait for (408 request_timeout) or will not read (413 payload_too_large): with
 * a page of its own, or `next(error)` for the service's error envelope.
 */
export type RefuseBody = (req: Request, res: Response, next: NextFunction, error: DomainError) => void;

const isTooLarge = (error: unknown): boolean => (error as { type?: string } | null)?.type === 'entity.too.large';

/**
 * Every body sent to a page is read here, before any route, within the API's deadline and a size fit for the page:
 * an HTML form (`application/x-www-form-urlencoded`, or a slip form's `multipart/form-data` where a route takes a slip
 * photo) becomes `req.body`; a body of any other type is read and
 * dropped (`req.body` is `{}`), so that no answer leaves a slow body holding the connection open. A body too slow or
 * too large is refused through `refuse`, and the connection closes (what is left of it would be read as the next
 * request).
 */
export function pageBody(limits: PageBodyLimits, refuse: RefuseBody): RequestHandler {
  const form = express.urlencoded({ extended: false, limit: limits.maxBytes, parameterLimit: 50 });
  const anythingElse = express.raw({ type: () => true, limit: limits.maxBytes });
  const tooLarge = () => new DomainError('payload_too_large', `The request body is larger than ${limits.maxBytes / 1024} KiB.`);
  return (req, res, next) => {
    const deadline = startBodyDeadline(req, res, limits.timeoutMs, (error) => refuse(req, res, next, error));
    const done = (error?: unknown) => {
      deadline.stop();
      if (deadline.passed()) return; // answered already; this is the reader giving up on the closed connection
      if (isTooLarge(error)) {
        res.setHeader('Connection', 'close');
        return refuse(req, res, next, tooLarge());
      }
      next(error);
    };
    if (limits.takesSlipPhoto?.(req) && req.method === 'POST' && isMultipart(req)) return readSlipUpload(req, done);
    form(req, res, (error?: unknown) => {
      if (error) return done(error);
      // Read only when the form reader did not (another type); `req.body` is then the bytes, which no page uses.
      anythingElse(req, res, (rest?: unknown) => {
        if (Buffer.isBuffer(req.body)) req.body = {};
        done(rest);
      });
    });
  };
}
