import type { RequestParamHandler } from 'express';
import { sendRefusal } from './layout.js';

/** An id in a path that no record can have (ids are letters, digits and `_`) is a page that does not exist: 404 before any lookup. */
export const plainId: RequestParamHandler = (req, res, next, id: unknown) =>
  typeof id === 'string' && /^\w{1,100}$/.test(id) ? next() : sendRefusal(req, res, 404, 'notFound');
