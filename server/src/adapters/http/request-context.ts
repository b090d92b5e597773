import type { IncomingMessage } from 'node:http';
import type { AuditContext } from '../../domain/audit.js';
import type { Merchant } from '../../domain/merchant.js';
import type { Answer } from './errors.js';

/** Typed access to what middleware leaves on `res.locals`. */
export const merchantOf = (res: { locals: Record<string, unknown> }): Merchant => res.locals.merchant as Merchant;
export const requestIdOf = (res: { locals: Record<string, unknown> }): string => res.locals.requestId as string;
/** Who the request acts as, for the audit log: set with the merchant by the key check of either lane. */
export const auditOf = (res: { locals: Record<string, unknown> }): AuditContext => res.locals.audit as AuditContext;

/** Every response carries a Request-Id; error bodies repeat it. */
export function requestId(newId: () => string) {
  return (_req: IncomingMessage, res: Answer, next: () => void): void => {
    const id = newId();
    res.locals.requestId = id;
    res.setHeader('Request-Id', id);
    next();
  };
}
