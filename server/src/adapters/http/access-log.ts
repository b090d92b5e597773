import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { BANK_CONFIRMATIONS_PATH } from './routes/bank-routes.js';

/** Under the bank's callback path in any spelling (Express routes case-insensitively; slashes may repeat). */
const UNDER_CALLBACK = new RegExp(`^${BANK_CONFIRMATIONS_PATH.replace(/\//g, '/+')}/`, 'i');

/** The path as logged: the bank's callback token, a secret in the URL, is never written out, whatever became of the request. */
export const loggedPath = (path: string): string => (UNDER_CALLBACK.test(path) ? `${BANK_CONFIRMATIONS_PATH}/***` : path);

/** Logs the answer to one request when it has gone out: method, path (masked), status, time. */
export function logAnswer(logger: Logger, method: string, path: string, res: ServerResponse & { locals: Record<string, unknown> }): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ requestId: res.locals.requestId, method, path: loggedPath(path), status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
  });
}

/** One line per request at info level: method, path (no query string), status, time. Never headers or bodies. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (logger.isLevelEnabled('info')) logAnswer(logger, req.method, req.path, res);
    next();
  };
}
