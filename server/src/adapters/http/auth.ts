import type { NextFunction, Request, Response } from 'express';
import { authenticate } from '../../app/merchants.js';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';

const BEARER = /^Bearer (sk_(?:test|live)_[A-Za-z0-9_-]{1,200})$/;

/** `Authorization: Bearer sk_test_...`: a missing, malformed or unknown key gets the same 401. */
export function requireApiKey(s: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const apiKey = BEARER.exec(req.get('authorization') ?? '')?.[1];
    const merchant = apiKey ? await authenticate(s, apiKey) : null;
    if (!merchant) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new DomainError('authentication_failed', "Send your secret API key as 'Authorization: Bearer sk_test_...' (or sk_live_...).");
    }
    res.locals.merchant = merchant;
    next();
  };
}
