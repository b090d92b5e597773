import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import { authenticate } from '../../app/merchants.js';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import type { AuditContext, KeyMaker } from '../../domain/audit.js';
import type { Merchant } from '../../domain/merchant.js';
import type { Permission } from '../../domain/permissions.js';
import type { KeyUsage } from '../../ports/api-keys.js';
import { clientAddress } from '../pages/client-address.js';
import type { RateLimiter } from './rate-limit.js';
import type { Step } from './steps.js';

const BEARER = /^Bearer ([sr]k_(?:test|live)_[A-Za-z0-9_-]{1,200})$/;

/** How long a looked-up key is trusted without asking the database again: a revocation reaches every instance within a second. */
export const KEY_RECHECK_MS = 800;

/**
 * A key in use is looked up again once this old, by the request that finds it so, while it is still trusted: so a key
 * in steady use never reaches KEY_RECHECK_MS, and its requests never leave the hot lane (./hot-routes.ts) to wait for
 * the lookup behind Express (5 % of QR requests under load did).
 */
export const KEY_REFRESH_MS = KEY_RECHECK_MS / 2;

export interface KnownKey {
  merchant: Merchant;
  keyId: string;
  last4: string;
  expiresAt: number; // Infinity: no expiry
  checkedAt: number;
  /** What a restricted key may do (./operation-permissions.ts); null: an unrestricted key. */
  permissions: Permission[] | null;
  /** The dashboard member who made the key; null: the operator. */
  madeBy: KeyMaker | null;
}

/**
 * Who is acting, for the audit log: the key by its last four (and the member who made it, if one did), through the API,
 * from the request's client address.
 */
export const auditContextOf = (key: KnownKey, clientAddress: string): AuditContext => ({
  actor: key.madeBy ? { kind: 'api_key', keyId: key.keyId, last4: key.last4, madeBy: key.madeBy } : { kind: 'api_key', keyId: key.keyId, last4: key.last4 },
  channel: 'api',
  clientAddress,
});

/** The API key check: Express middleware, and a synchronous look into what it already knows (for ./hot-routes.ts). */
export interface ApiKeyCheck {
  middleware: Step;
  /** The key of the request's Authorization header if checked within KEY_RECHECK_MS and not expired; undefined: ask the middleware. */
  recent(req: IncomingMessage, nowMs: number): KnownKey | undefined;
}

/** The hash of the key a request sent, once worked out (by the hot lane's look, then the middleware): SHA-256 once a request. */
const HASHED = Symbol('API key hash');
type Hashed = IncomingMessage & { [HASHED]?: { apiKey: string; hash: string } };

/**
 * `Authorization: Bearer sk_test_...` (or a restricted `rk_test_...`): a missing, malformed, unknown, expired or revoked
 * key gets the same 401. A key found, with its permissions, is remembered (by hash, never the key itself) for
 * KEY_RECHECK_MS, so a busy merchant costs one lookup per instance and per 0.4 s (KEY_REFRESH_MS), not one per request;
 * concurrent requests share that lookup. Expiry is checked on every request. The request then carries the key and its
 * AuditContext (`res.locals.apiKey`, `res.locals.audit`) for the permission step and the audited use cases.
 *
 * Each failure takes a token from its client address's bucket in `failures`; an address with none left gets 429 for
 * any key not already known, without a lookup, so guessing keys (and the lookups it costs) is bounded per address.
 * It runs before the body is read: a request without a valid key is answered whatever its body.
 */
export function requireApiKey(s: Services, usage: KeyUsage, failures: RateLimiter): ApiKeyCheck {
  const known = new LRUCache<string, KnownKey>({ max: 10_000 });
  const lookingUp = new Map<string, Promise<KnownKey | null>>();
  const lookUp = (hash: string, apiKey: string, now: number): Promise<KnownKey | null> => {
    let pending = lookingUp.get(hash);
    if (!pending) {
      pending = authenticate(s, apiKey)
        .then((found) => {
          const key = found && {
            merchant: found.merchant,
            keyId: found.keyId,
            last4: found.last4 ?? '????', // keys issued before the last four were kept
            expiresAt: found.expiresAt?.getTime() ?? Infinity,
            checkedAt: now,
            permissions: found.permissions,
            madeBy: found.madeBy,
          };
          if (key) known.set(hash, key);
          else known.delete(hash);
          return key;
        })
        .finally(() => lookingUp.delete(hash));
      lookingUp.set(hash, pending);
    }
    return pending;
  };
  const fresh = (key: KnownKey | undefined, nowMs: number): KnownKey | undefined =>
    key && nowMs - key.checkedAt < KEY_RECHECK_MS && nowMs >= key.checkedAt ? key : undefined;
  const apiKeyOf = (authorization: string | undefined): string | undefined => BEARER.exec(authorization ?? '')?.[1];
  const hashOf = (req: Hashed, apiKey: string): string => {
    const hashed = req[HASHED];
    if (hashed?.apiKey === apiKey) return hashed.hash;
    const hash = s.apiKeys.hash(apiKey);
    req[HASHED] = { apiKey, hash };
    return hash;
  };

  const middleware: Step = async (req, res, next) => {
    const apiKey = apiKeyOf(req.headers.authorization);
    const now = s.clock.now();
    const nowMs = now.getTime();
    const hash = apiKey && hashOf(req, apiKey);
    const trusted = hash ? fresh(known.get(hash), nowMs) : undefined;
    let key = trusted;
    if (trusted && hash && apiKey && nowMs - trusted.checkedAt >= KEY_REFRESH_MS && !lookingUp.has(hash)) {
      // Asked again while still trusted: a revocation found now answers 401; a database that cannot say keeps the key trusted until KEY_RECHECK_MS.
      key = await lookUp(hash, apiKey, nowMs).then(
        (found) => found ?? undefined,
        () => trusted,
      );
    } else if (!trusted) {
      const blocked = failures.peek(clientAddress(req), nowMs);
      if (blocked && !blocked.allowed) failures.refuse(res, blocked);
      if (hash && apiKey) key = (await lookUp(hash, apiKey, nowMs)) ?? undefined;
    }
    if (!key || key.expiresAt <= nowMs) {
      const decision = failures.take(clientAddress(req), nowMs);
      if (decision && !decision.allowed) failures.refuse(res, decision);
      if (decision) failures.announce(res, decision);
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new DomainError('authentication_failed', "Send your secret API key as 'Authorization: Bearer sk_test_...' (or sk_live_...).");
    }
    usage.touch(key.keyId, now);
    res.locals.merchant = key.merchant;
    res.locals.apiKey = key;
    res.locals.audit = auditContextOf(key, clientAddress(req));
    next();
  };
  const recent = (req: IncomingMessage, nowMs: number): KnownKey | undefined => {
    const apiKey = apiKeyOf(req.headers.authorization);
    const key = apiKey && fresh(known.get(hashOf(req, apiKey)), nowMs);
    return key && key.expiresAt > nowMs ? key : undefined;
  };
  return { middleware, recent };
}
