import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from '../../domain/errors.js';

/** True when any string or key in a parsed JSON value holds a NUL, which PostgreSQL text cannot store. Iterative: nesting depth cannot overflow the stack. */
function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (next !== null && typeof next === 'object') {
      for (const [key, child] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/** JSON bodies up to 1 MiB, objects or arrays only, with no NUL characters anywhere. */
export function jsonBody() {
  const parse = express.json({ limit: '1mb', strict: true });
  return [
    parse,
    (req: Request, _res: Response, next: NextFunction) => {
      if (holdsNul(req.body)) throw new DomainError('invalid_request', 'Strings in the body must not contain NUL (\\u0000) characters.');
      next();
    },
  ];
}
