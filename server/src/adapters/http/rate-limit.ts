import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { TokenBuckets } from '../../domain/token-bucket.js';
import type { Clock } from '../../ports/clock.js';
import { merchantOf } from './request-context.js';

const passThrough: RequestHandler = (_req, _res, next) => next();

/**
 * A token bucket per key in front of the routes after it, announced on every answer with the RateLimit-Policy and
 * RateLimit fields of draft 9 of httpapi-ratelimit-headers; over the limit: 429 rate_limit_exceeded with Retry-After.
 * It answers before any route runs, so a 429 is never stored under an Idempotency-Key. `perSecond` 0: no limit.
 */
function rateLimit(policy: string, clock: Clock, perSecond: number, keyOf: (req: Request, res: Response) => string): RequestHandler {
  if (perSecond === 0) return passThrough;
  const buckets = new TokenBuckets(perSecond);
  const policyField = `"${policy}";q=${perSecond};w=1`;
  return (req: Request, res: Response, next: NextFunction): void => {
    const decision = buckets.take(keyOf(req, res), clock.now().getTime());
    res.setHeader('RateLimit-Policy', policyField);
    res.setHeader('RateLimit', `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (decision.allowed) return next();
    res.setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new DomainError('rate_limit_exceeded', `Too many requests: at most ${perSecond} a second. Retry after ${decision.retryAfterSeconds} s (Retry-After).`);
  };
}

/** The API: one bucket per merchant, after authentication. */
export const rateLimitPerMerchant = (clock: Clock, perSecond: number): RequestHandler => rateLimit('merchant', clock, perSecond, (_req, res) => merchantOf(res).id);

/**
 * Public pages (the QR image, the checkout page): one bucket per client address, shared by every route it is mounted
 * in front of. The address is the TCP peer's: behind a proxy, every client shares the proxy's bucket.
 */
export const rateLimitPerAddress = (clock: Clock, perSecond: number): RequestHandler =>
  rateLimit('address', clock, perSecond, (req) => req.socket.remoteAddress ?? 'unknown');
