import { Router, type Request, type Response } from 'express';
import { endSession } from '../../app/dashboard-sessions.js';
import type { Services } from '../../app/services.js';
import { awaitsSecondFactor, completeSignIn, signInWithPassword } from '../../app/sign-in.js';
import { AccountError } from '../../domain/account-errors.js';
import { clearCookie, cookieLifetimes, readCookie, setCookie, type DashboardCookies } from './cookies.js';
import { field, safeNext } from './forms.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPublicPage } from './layout.js';
import { clientOf } from './request-context.js';

const LOGIN = `${DASHBOARD_BASE}/login`;
const withNext = (path: string, next: string | null) => (next ? `${path}?next=${encodeURIComponent(next)}` : path);

/** Sign-in in two steps (e-mail and password, then a TOTP or recovery code), and sign-out. */
export function loginRoutes(s: Services, cookies: DashboardCookies): Router {
  const router = Router();

  const passwordForm = (req: Request, res: Response, options: { failed?: boolean; notice?: string | null; email?: string } = {}) => {
    const { t } = commonView(req);
    const next = safeNext(req.query.next ?? field(req, 'next'));
    const body = renderTemplate(req, 'login', {
      next,
      failed: options.failed ? t.login.failed : null,
      notice: options.notice ?? null,
      email: options.email ?? '',
    });
    sendPublicPage(req, res, { title: t.login.title, body, status: options.failed ? 401 : 200 });
  };
  const codeForm = (req: Request, res: Response, failed = false) => {
    const { t } = commonView(req);
    const next = safeNext(req.query.next ?? field(req, 'next'));
    sendPublicPage(req, res, {
      title: t.login.secondFactorTitle,
      body: renderTemplate(req, 'login-code', { next, failed: failed ? t.login.failed : null }),
      status: failed ? 401 : 200,
    });
  };

  router.get('/login', (req, res) => {
    if (req.dashboard) return res.redirect(303, safeNext(req.query.next) ?? DASHBOARD_BASE);
    const { t } = commonView(req);
    passwordForm(req, res, { notice: req.query.signed_out === '1' ? t.login.signedOut : null });
  });

  router.post('/login', async (req, res) => {
    try {
      const { pendingSessionId } = await signInWithPassword(s, { email: field(req, 'email'), password: field(req, 'password') }, clientOf(req));
      setCookie(res, cookies, cookies.signIn, pendingSessionId, cookieLifetimes.signIn);
      res.redirect(303, withNext(`${LOGIN}/code`, safeNext(field(req, 'next'))));
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      passwordForm(req, res, { failed: true, email: field(req, 'email') });
    }
  });

  router.get('/login/code', async (req, res) => {
    const pending = readCookie(req, cookies.signIn);
    if (!pending || !(await awaitsSecondFactor(s, pending))) return res.redirect(303, withNext(LOGIN, safeNext(req.query.next)));
    codeForm(req, res);
  });

  router.post('/login/code', async (req, res) => {
    const pending = readCookie(req, cookies.signIn) ?? '';
    try {
      const session = await completeSignIn(s, pending, field(req, 'code'), clientOf(req));
      clearCookie(res, cookies, cookies.signIn);
      setCookie(res, cookies, cookies.session, session.id, cookieLifetimes.session);
      res.redirect(303, safeNext(field(req, 'next')) ?? DASHBOARD_BASE);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      if (pending && (await awaitsSecondFactor(s, pending))) return codeForm(req, res, true);
      clearCookie(res, cookies, cookies.signIn);
      passwordForm(req, res, { failed: true });
    }
  });

  router.post('/logout', async (req, res) => {
    const id = readCookie(req, cookies.session);
    if (id) await endSession(s, id, req.dashboard ?? null, clientOf(req));
    clearCookie(res, cookies, cookies.session);
    res.redirect(303, `${LOGIN}?signed_out=1`);
  });
  return router;
}
