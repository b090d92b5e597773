import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { TokenBuckets, type RateDecision } from '../../domain/token-bucket.js';
import type { Clock } from '../../ports/clock.js';
import { merchantOf } from './request-context.js';

const passThrough: RequestHandler = (_req, _res, next) => next();

/**
 * A token bucket per key in front of the routes after it, announced on every answer with the RateLimit-Policy and
 * RateLimit fields of draft 9 of httpapi-ratelimit-headers; over the limit: 429 rate_limit_exceeded with Retry-After.
 * It answers before any route runs, so a 429 is never stored under an Idempotency-Key. `perSecond` 0: no limit.
 */
function rateLimit(policy: string, clock: Clock, perSecond: number, keyOf: (req: Request, res: Response) => string): RequestHandler {
  return rateLimiter(policy, clock, perSecond, keyOf).middleware;
}

/** The limiter: its middleware, and (for ./hot-routes.ts) one bucket's decision and how an answer announces it. */
export interface RateLimiter {
  middleware: RequestHandler;
  /** The decision for a key (a token taken only when allowed); null: no limit. */
  take(key: string, nowMs: number): RateDecision | null;
  announce(res: ServerResponse, decision: RateDecision): void;
}

function rateLimiter(policy: string, clock: Clock, perSecond: number, keyOf: (req: Request, res: Response) => string): RateLimiter {
  if (perSecond === 0) return { middleware: passThrough, take: () => null, announce: () => undefined };
  const buckets = new TokenBuckets(perSecond);
  const policyField = `"${policy}";q=${perSecond};w=1`;
  const announce = (res: ServerResponse, decision: RateDecision): void => {
    res.setHeader('RateLimit-Policy', policyField);
    res.setHeader('RateLimit', `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
  };
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    const decision = buckets.take(keyOf(req, res), clock.now().getTime());
    announce(res, decision);
    if (decision.allowed) return next();
    res.setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new DomainError('rate_limit_exceeded', `Too many requests: at most ${perSecond} a second. Retry after ${decision.retryAfterSeconds} s (Retry-After).`);
  };
  return { middleware, take: (key, nowMs) => buckets.take(key, nowMs), announce };
}

/** The API: one bucket per merchant, after authentication. */
export const rateLimitPerMerchant = (clock: Clock, perSecond: number): RateLimiter => rateLimiter('merchant', clock, perSecond, (_req, res) => merchantOf(res).id);

/**
 * Public pages (the QR image, the checkout page): one bucket per client address, shared by every route it is mounted
 * in front of. The address is the TCP peer's: behind a proxy, every client shares the proxy's bucket.
 */
export const rateLimitPerAddress = (clock: Clock, perSecond: number): RequestHandler =>
  rateLimit('address', clock, perSecond, (req) => req.socket.remoteAddress ?? 'unknown');
