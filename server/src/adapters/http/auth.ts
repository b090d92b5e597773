import type { NextFunction, Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { authenticate } from '../../app/merchants.js';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import type { Merchant } from '../../domain/merchant.js';

const BEARER = /^Bearer (sk_(?:test|live)_[A-Za-z0-9_-]{1,200})$/;

/**
 * `Authorization: Bearer sk_test_...`: a missing, malformed or unknown key gets the same 401. Known keys are
 * remembered briefly (by hash, never the key itself) so that a request costs no database round trip for auth;
 * keys cannot be revoked through the API, so a minute of memory changes nothing a merchant can observe.
 */
export function requireApiKey(s: Services) {
  const merchants = new LRUCache<string, Merchant>({ max: 10_000, ttl: 60_000 });
  const lookUp = async (hash: string, apiKey: string): Promise<Merchant | null> => {
    const merchant = await authenticate(s, apiKey);
    if (merchant) merchants.set(hash, merchant);
    return merchant;
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const apiKey = BEARER.exec(req.get('authorization') ?? '')?.[1];
    const hash = apiKey ? s.apiKeys.hash(apiKey) : '';
    const merchant = apiKey ? (merchants.get(hash) ?? (await lookUp(hash, apiKey))) : null;
    if (!merchant) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new DomainError('authentication_failed', "Send your secret API key as 'Authorization: Bearer sk_test_...' (or sk_live_...).");
    }
    res.locals.merchant = merchant;
    next();
  };
}
