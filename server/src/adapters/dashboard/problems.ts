import type { Request } from 'express';
import { ApiKeyAdminError, KeyAboveMakerError } from '../../app/api-keys.js';
import { DomainError } from '../../domain/errors.js';
import { commonView } from './layout.js';

export interface Problem {
  /** In the page's language; `detail` is the service's own words (English), for the specifics. */
  message: string;
  detail: string | null;
  status: number;
}

/**
 * A refusal of the developers', tills' and reports' use cases as the page shows it: a sentence in the page's language,
 * with the service's English detail beside it in brackets (`ใช้ URL นี้ไม่ได้ (url must use https: ...)`), never the
 * English alone. A missing thing answers 404, anything to correct 422. Any other error goes on to the error page.
 */
export function problemOf(req: Request, error: unknown): Problem {
  const { t } = commonView(req);
  if (error instanceof ApiKeyAdminError) return { message: t.problems.not_found, detail: error.message, status: 404 };
  if (error instanceof KeyAboveMakerError) return { message: t.problems.key_above_role, detail: error.message, status: 403 };
  if (!(error instanceof DomainError)) throw error;
  if (error.code.endsWith('_not_found')) return { message: t.problems.not_found, detail: error.message, status: 404 };
  if (error.code === 'invalid_url') return { message: t.problems.invalid_url, detail: error.message, status: 422 };
  if (error.code === 'webhook_limit_reached') return { message: t.problems.webhook_limit_reached, detail: null, status: 422 };
  if (error.code === 'till_limit_reached' || error.code === 'till_unavailable') return { message: t.problems[error.code], detail: error.message, status: 422 };
  if (error.param === 'events') return { message: t.problems.no_events, detail: error.message, status: 422 };
  if (error.param === 'permissions') return { message: t.problems.no_permissions, detail: error.message, status: 422 };
  return { message: t.problems.invalid, detail: error.message, status: 422 };
}
