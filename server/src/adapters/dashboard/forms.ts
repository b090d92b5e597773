import type { Request } from 'express';
import { AccountError, type AccountErrorCode } from '../../domain/account-errors.js';
import { commonView } from './layout.js';

/** A form field as sent, or '' (absent, repeated, or not text). */
export const field = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** Refusals about who may do what answer 403; a form to correct answers 422. */
const forbidding: readonly AccountErrorCode[] = ['forbidden', 'owners_only'];

/** An account refusal in the page's language with its status; any other error goes on to the error page. */
export function refusalOf(req: Request, error: unknown): { message: string; status: number } {
  if (!(error instanceof AccountError)) throw error;
  return { message: commonView(req).t.errors[error.code], status: forbidding.includes(error.code) ? 403 : 422 };
}

/** Only a path of the dashboard itself may be a `next`: never another site. */
export const safeNext = (text: unknown): string | null =>
  typeof text === 'string' && /^\/dashboard(?:[/?][^\s\\]*)?$/.test(text) && !text.startsWith('//') && !text.includes('/../') ? text : null;
