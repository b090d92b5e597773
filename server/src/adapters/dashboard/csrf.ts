import type { Request, RequestHandler } from 'express';
import type { SecretTokens } from '../../ports/accounts.js';
import { cookieLifetimes, readCookie, setCookie, type DashboardCookies } from './cookies.js';
import { sendRefusal } from './layout.js';

/** The origin forms must come from: PUBLIC_BASE_URL's, or (when it is not set) the one the request was sent to. */
export const expectedOrigin = (publicBaseUrl: string | null, req: Request): string =>
  publicBaseUrl ? new URL(publicBaseUrl).origin : `${req.protocol}://${req.get('host') ?? ''}`;

const FIELD = '_csrf';
const changesState = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * Every state-changing request must carry the token of its session (a signed-in one, or before sign-in the token in
 * a cookie of its own) and an `Origin` of the service: otherwise 403 and nothing happens. Runs after the session is
 * loaded, so a signed-in form is checked against its session's token, never the pre-session one.
 */
export function csrfProtection(options: { cookies: DashboardCookies; tokens: SecretTokens; publicBaseUrl: string | null }): RequestHandler {
  const { cookies, tokens } = options;
  return (req, res, next) => {
    const preSession = readCookie(req, cookies.csrf);
    if (!changesState(req.method)) {
      if (req.dashboard) req.csrfToken = req.dashboard.csrfToken;
      else if (preSession) req.csrfToken = preSession;
      else {
        req.csrfToken = tokens.token();
        setCookie(res, cookies, cookies.csrf, req.csrfToken, cookieLifetimes.csrf);
      }
      return next();
    }
    const expected = req.dashboard?.csrfToken ?? preSession;
    const sent = (req.body as Record<string, unknown> | undefined)?.[FIELD];
    const sameOrigin = req.get('origin') === expectedOrigin(options.publicBaseUrl, req);
    if (!sameOrigin || !expected || typeof sent !== 'string' || !tokens.same(sent, expected)) return sendRefusal(req, res, 403, 'formExpired');
    req.csrfToken = expected;
    next();
  };
}
