import type { RequestHandler } from 'express';
import { userContext } from '../../app/account-audit.js';
import { resumeSession, type SignedIn } from '../../app/dashboard-sessions.js';
import type { Services } from '../../app/services.js';
import { roleMay, type Ability } from '../../domain/permissions.js';
import { clearCookie, readCookie, type DashboardCookies } from './cookies.js';
import { sendNoMerchant, sendRefusal } from './layout.js';
import { clientOf, signedIn, type DashboardContext } from './request-context.js';

/** Where signing in starts. */
export const LOGIN_PATH = '/dashboard/login';

const memberless = new WeakMap<object, SignedIn>();

/**
 * Reads the session cookie on every dashboard request: a live session of a member puts `req.dashboard` in place; an
 * unknown or ended one (idle 30 minutes, 12 hours old, signed out) clears the cookie.
 */
export function loadSession(s: Services, cookies: DashboardCookies): RequestHandler {
  return async (req, res, next) => {
    const id = readCookie(req, cookies.session);
    if (!id) return next();
    const found = await resumeSession(s, id);
    if (!found) {
      clearCookie(res, cookies, cookies.session);
      return next();
    }
    const { membership, merchant } = found;
    if (!membership || !merchant) {
      memberless.set(req, found);
      return next();
    }
    const client = clientOf(req);
    const context: DashboardContext = {
      ...found,
      membership,
      merchant,
      csrfToken: found.session.csrfToken,
      actor: { userId: found.user.id, email: found.user.email, merchantId: merchant.id, role: membership.role },
      audit: userContext(found.user, client),
    };
    req.dashboard = context;
    next();
  };
}

/** The pages behind sign-in: without a session, a GET goes to the login page (and comes back after), anything else too. */
export const requireSignIn: RequestHandler = (req, res, next) => {
  if (req.dashboard) return next();
  if (memberless.has(req)) return sendNoMerchant(req, res);
  const back = req.method === 'GET' ? `?next=${encodeURIComponent(req.originalUrl)}` : '';
  res.redirect(303, `${LOGIN_PATH}${back}`);
};

/** 403 unless the member's role may (the one permission table in the domain decides). */
export const requireAbility =
  (ability: Ability): RequestHandler =>
  (req, res, next) =>
    roleMay(signedIn(req).membership.role, ability) ? next() : sendRefusal(req, res, 403, 'forbidden');
