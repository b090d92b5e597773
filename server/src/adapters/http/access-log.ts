import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** Logs the answer to one request when it has gone out: method, path, status, time. */
export function logAnswer(logger: Logger, method: string, path: string, res: ServerResponse & { locals: Record<string, unknown> }): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ requestId: res.locals.requestId, method, path: (res.locals.loggedPath as string | undefined) ?? path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
  });
}

/** One line per request at info level: method, path (no query string; a route may mask a secret in it), status, time. Never headers or bodies. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (logger.isLevelEnabled('info')) logAnswer(logger, req.method, req.path, res);
    next();
  };
}
