import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../../domain/errors.js';
import { TokenBuckets, type RateDecision } from '../../domain/token-bucket.js';
import type { Answer } from './errors.js';
import type { Step } from './steps.js';
import type { Clock } from '../../ports/clock.js';
import { merchantOf } from './request-context.js';
import { clientAddress } from '../pages/client-address.js';

const passThrough: Step = (_req, _res, next) => next();

/** The limiter: its middleware, and one bucket's decision and how an answer announces or refuses it (./hot-routes.ts, ./auth.ts). */
export interface RateLimiter {
  middleware: Step;
  /** The decision for a key (a token taken only when allowed); null: no limit. */
  take(key: string, nowMs: number): RateDecision | null;
  /** What `take` would decide, without taking a token; null: no limit. */
  peek(key: string, nowMs: number): RateDecision | null;
  announce(res: ServerResponse, decision: RateDecision): void;
  /** Throws the 429 for a refused decision, with Retry-After and the RateLimit fields. */
  refuse(res: ServerResponse, decision: RateDecision): never;
}

/**
 * A token bucket per key in front of the routes after it, announced on every answer with the RateLimit-Policy and
 * RateLimit fields of draft 9 of httpapi-ratelimit-headers; over the limit: 429 rate_limit_exceeded with Retry-After.
 * It answers before any route runs, so a 429 is never stored under an Idempotency-Key. `perSecond` 0: no limit.
 */
function rateLimiter(policy: string, what: string, clock: Clock, perSecond: number, keyOf: (req: IncomingMessage, res: Answer) => string): RateLimiter {
  const refuse = (): never => {
    throw new Error('no limit: nothing is refused');
  };
  if (perSecond === 0) return { middleware: passThrough, take: () => null, peek: () => null, announce: () => undefined, refuse };
  const buckets = new TokenBuckets(perSecond);
  const policyField = `"${policy}";q=${perSecond};w=1`;
  const limiter: RateLimiter = {
    announce(res, decision) {
      res.setHeader('RateLimit-Policy', policyField);
      res.setHeader('RateLimit', `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
    },
    refuse(res, decision) {
      limiter.announce(res, decision);
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      throw new DomainError(
        'rate_limit_exceeded',
        `Too many ${what}: at most ${perSecond} a second. Retry after ${decision.retryAfterSeconds} s (Retry-After).`,
      );
    },
    take: (key, nowMs) => buckets.take(key, nowMs),
    peek: (key, nowMs) => buckets.peek(key, nowMs),
    middleware: (req, res, next) => {
      const decision = buckets.take(keyOf(req, res), clock.now().getTime());
      if (!decision.allowed) limiter.refuse(res, decision);
      limiter.announce(res, decision);
      next();
    },
  };
  return limiter;
}

/** The API: one bucket per merchant, after authentication. */
export const rateLimitPerMerchant = (clock: Clock, perSecond: number): RateLimiter =>
  rateLimiter('merchant', 'requests', clock, perSecond, (_req, res) => merchantOf(res).id);

/**
 * Public pages (the QR image, the checkout page): one bucket per client address, shared by every route it is mounted
 * in front of.
 */
export const rateLimitPerAddress = (clock: Clock, perSecond: number): Step => rateLimiter('address', 'requests', clock, perSecond, clientAddress).middleware;

/** Failed authentications on the API: one bucket per client address, drawn on by ./auth.ts only when a key fails. */
export const failedAuthenticationLimit = (clock: Clock, perSecond: number): RateLimiter =>
  rateLimiter('authentication', 'failed authentications from this address', clock, perSecond, clientAddress);
