import { fileURLToPath } from 'node:url';
import { Router, type ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { switchMerchant } from '../../app/dashboard-sessions.js';
import type { Services } from '../../app/services.js';
import { AccountError } from '../../domain/account-errors.js';
import { DocumentsBusy } from '../../ports/documents.js';
import { serveChime } from '../pages/chime.js';
import { pageAssets } from '../pages/page-assets.js';
import { pageBody } from '../pages/page-body.js';
import { pageHeaders } from '../pages/page-headers.js';
import { accountRoutes } from './account-routes.js';
import { apiKeyRoutes } from './api-key-routes.js';
import { dashboardCookies } from './cookies.js';
import { csrfProtection } from './csrf.js';
import { field } from './forms.js';
import { invitationRoutes } from './invitation-routes.js';
import { eventRoutes } from './event-routes.js';
import { dashboardLanguage } from './language.js';
import { DASHBOARD_BASE, sendRefusal } from './layout.js';
import { loginRoutes } from './login-routes.js';
import { moneyRoutes } from './money-routes.js';
import type { MerchantPaymentFeed } from './payment-feed.js';
import { receiveRoutes } from './receive-routes.js';
import { reportRoutes } from './report-routes.js';
import { signedIn } from './request-context.js';
import { SLIP_CHECK_PATH, slipRoutes } from './slip-routes.js';
import { loadSession, requireSignIn } from './session.js';
import { teamRoutes } from './team-routes.js';
import { tillSettingsRoutes } from './till-settings-routes.js';
import { webhookRoutes } from './webhook-routes.js';

export { DASHBOARD_BASE } from './layout.js';

export interface DashboardDeps {
  services: Services;
  /**
   * PUBLIC_BASE_URL as configured (null: not set). Forms must come from its origin (or, unset, from the Host the
   * request names); on https the cookies are `__Host-` prefixed and Secure.
   */
  publicBaseUrl: string | null;
  logger: Logger;
  /** The merchant's payment changes, for the live lists of Home and Payments. */
  paymentFeed: MerchantPaymentFeed;
  /** A live list's stream ends after this long (CHECKOUT_STREAM_LIFETIME, as the checkout page's); the page reconnects. */
  streamLifetimeMs: number;
  /** How long a form may take to arrive once reading starts (REQUEST_BODY_TIMEOUT_MS, as the API's); then 408. */
  requestBodyTimeoutMs: number;
}

/** The largest form the dashboard reads (DECISIONS, "Every body has a deadline"); beyond it 413. */
export const MAX_FORM_BYTES = 64 * 1024;

const assetsDir = fileURLToPath(new URL('./assets/', import.meta.url));
/**
 * Forms post only here. Invitation tokens are in URLs: no other site is told them (with no-referrer, browsers would
 * send `Origin: null` on our own forms). The operator's TLS front decides Strict-Transport-Security.
 */
const strictHeaders = pageHeaders({ formAction: "'self'", referrerPolicy: 'same-origin', strictTransportSecurity: false });

/**
 * The merchant dashboard, mounted at /dashboard: server-rendered pages over the use cases. Every request gets the
 * strict headers, its language and its session; every POST must pass the CSRF check; pages behind sign-in check the
 * member's role against the domain's permission table (`requireAbility`).
 */
export function dashboardRoutes(deps: DashboardDeps): Router {
  const s = deps.services;
  const secure = deps.publicBaseUrl?.startsWith('https:') ?? false;
  const cookies = dashboardCookies(secure);
  const router = Router();
  router.use(strictHeaders);
  router.use(pageAssets(assetsDir));
  router.get('/assets/chime.wav', serveChime);
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store'); // pages hold a merchant's data and a session's form tokens
    next();
  });
  router.use(dashboardLanguage(cookies));
  router.use(
    pageBody(
      { timeoutMs: deps.requestBodyTimeoutMs, maxBytes: MAX_FORM_BYTES, takesSlipPhoto: (req) => req.originalUrl.split('?')[0] === SLIP_CHECK_PATH },
      (req, res, _next, error) => (error.code === 'request_timeout' ? sendRefusal(req, res, 408, 'formTooSlow') : sendRefusal(req, res, 413, 'formTooLarge')),
    ),
  );
  router.use(loadSession(s, cookies));
  router.use(csrfProtection({ cookies, tokens: s.accounts.tokens, publicBaseUrl: deps.publicBaseUrl }));

  // Before sign-in.
  router.use(loginRoutes(s, cookies));
  router.use(invitationRoutes(s, cookies));

  // Signed in.
  const member = Router();
  member.use(requireSignIn);
  member.post('/merchant', async (req, res) => {
    try {
      await switchMerchant(s, signedIn(req), field(req, 'merchant_id'));
      res.redirect(303, DASHBOARD_BASE);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      sendRefusal(req, res, 403, 'forbidden');
    }
  });
  member.use(moneyRoutes(s, deps.paymentFeed, { streamLifetimeMs: deps.streamLifetimeMs, publicBaseUrl: deps.publicBaseUrl }));
  member.use(receiveRoutes(s, cookies));
  member.use(slipRoutes(s));
  member.use(tillSettingsRoutes(s, deps.publicBaseUrl));
  member.use(accountRoutes(s));
  member.use(teamRoutes(s, deps.publicBaseUrl));
  member.use(apiKeyRoutes(s));
  member.use(webhookRoutes(s));
  member.use(eventRoutes(s));
  member.use(reportRoutes(s));
  member.use((req, res) => sendRefusal(req, res, 404, 'notFound'));
  router.use(member);

  const errorPage: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof DocumentsBusy) return next(error); // a download, not a page: 503 in the envelope, with Retry-After
    const status = (error as { status?: number } | null)?.status;
    if (status === 400 || status === 415) return sendRefusal(req, res, 400, 'formExpired'); // a form the body parser could not read
    deps.logger.error({ err: error, requestId: res.locals.requestId }, 'dashboard request failed');
    sendRefusal(req, res, 500, 'error');
  };
  router.use(errorPage);
  return router;
}
