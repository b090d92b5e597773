import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { confirmBankPayment } from '../../../app/bank-payments.js';
import type { Services } from '../../../app/services.js';
import { DomainError } from '../../../domain/errors.js';

export const BANK_CONFIRMATIONS_PATH = '/bank/scb/confirmations';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The bank's payment-confirmation callback, outside the merchant API: no API key, only the secret token in the URL
 * registered with the bank (never logged, see ../access-log.ts). A wrong token is an unknown route, answered before the
 * body is read (`readBody`). The bank expects `resCode` "00" to stop retrying.
 */
export function bankConfirmationRoutes(s: Services, callbackToken: string | null, readBody: RequestHandler): Router {
  const router = Router();
  const expected = callbackToken === null ? null : digest(callbackToken);
  const knownToken: RequestHandler = (req, _res, next) => {
    if (!expected || !timingSafeEqual(digest(String(req.params.token)), expected)) {
      throw new DomainError('route_not_found', 'No such route. See the API reference for the paths under /Thai/v1.');
    }
    next();
  };
  router.post('/:token', knownToken, readBody, async (req, res) => {
    const { transactionId } = await confirmBankPayment(s, req.body);
    res.json({ resCode: '00', resDesc: 'success', transactionId });
  });
  return router;
}
