import type { Router } from 'express';
import { notFound, type ErrorCode } from '../../../domain/errors.js';
import { isUnstorableId } from '../json-body.js';

type NotFoundCode = Extract<ErrorCode, `${string}_not_found`>;

/** An id no record can have (a NUL, a lone surrogate) is simply unknown: 404, before it reaches the database. */
export function unknownWhenUnstorable(router: Router, ids: Record<string, NotFoundCode>): void {
  for (const [name, code] of Object.entries(ids)) {
    router.param(name, (_req, _res, next, id: string) => next(isUnstorableId(id) ? notFound(code, id) : undefined));
  }
}
