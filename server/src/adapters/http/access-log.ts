import type { IncomingMessage } from 'node:http';
import parseurl from 'parseurl';
import type { Logger } from 'pino';
import { clientAddress } from '../pages/client-address.js';
import type { Answer } from './errors.js';
import { BANK_CONFIRMATIONS_PATH } from './routes/bank-routes.js';

/** Under the bank's callback path in any spelling (Express routes case-insensitively; slashes may repeat). */
const UNDER_CALLBACK = new RegExp(`^${BANK_CONFIRMATIONS_PATH.replace(/\//g, '/+')}/`, 'i');

/** The path as logged: the bank's callback token, a secret in the URL, is never written out, whatever became of the request. */
export const loggedPath = (path: string): string => (UNDER_CALLBACK.test(path) ? `${BANK_CONFIRMATIONS_PATH}/***` : path);

/**
 * One line per request at info level, when its answer has gone out: the client's address (../pages/client-address.ts),
 * method, path (masked, no query string), status, time. Never headers or bodies. The path is read as Express routes by it (parseurl), whatever form the target came in.
 */
export function accessLog(logger: Logger) {
  return (req: IncomingMessage, res: Answer, next: () => void): void => {
    if (!logger.isLevelEnabled('info')) return next();
    const { method } = req;
    const client = clientAddress(req);
    const path = loggedPath(parseurl(req)?.pathname ?? '/');
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId: res.locals.requestId, client, method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
