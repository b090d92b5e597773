import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** One line per request at info level: method, path (no query string; a route may mask a secret in it), status, time. Never headers or bodies. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId: res.locals.requestId, method: req.method, path: (res.locals.loggedPath as string | undefined) ?? req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
