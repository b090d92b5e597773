import { Router, type Request, type Response } from 'express';
import { acceptAsUser, choosePassword, confirmEnrolment, openInvitation, type OpenInvitation } from '../../app/invitations.js';
import type { Services } from '../../app/services.js';
import { AccountError } from '../../domain/account-errors.js';
import { cookieLifetimes, setCookie, type DashboardCookies } from './cookies.js';
import { field, refusalOf } from './forms.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPublicPage } from './layout.js';
import { fill } from './messages.js';
import { recoveryCodesView } from './recovery-codes-view.js';
import { clientOf } from './request-context.js';
import { groupedSecret, totpQrSvg } from './totp-qr.js';

const plausibleToken = (token: string): boolean => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** Accepting an invitation: a password, then TOTP enrolment confirmed by a code, then the recovery codes, once. */
export function invitationRoutes(s: Services, cookies: DashboardCookies): Router {
  const router = Router();

  const unusable = (req: Request, res: Response) => {
    const { t } = commonView(req);
    sendPublicPage(req, res, { title: t.invitation.unusableTitle, body: renderTemplate(req, 'message', { message: t.invitation.unusable }), status: 404 });
  };

  /** The invitation, or null (and the "not valid" page sent) for any token that is not an open invitation's. */
  const opened = async (req: Request, res: Response): Promise<OpenInvitation | null> => {
    const token = String(req.params.token);
    try {
      if (!plausibleToken(token)) throw new AccountError('invitation_unusable', 'implausible token');
      return await openInvitation(s, token);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      unusable(req, res);
      return null;
    }
  };

  async function show(req: Request, res: Response, invitation: OpenInvitation, error: { message: string; status: number } | null = null) {
    const { t } = commonView(req);
    const token = String(req.params.token);
    const intro = fill(t.invitation.intro, {
      merchant: invitation.merchantName,
      role: t.roles[invitation.invitation.role],
      email: invitation.invitation.email,
    });
    const view = { token, intro, error: error?.message ?? null };
    const status = error?.status ?? 200;
    if (invitation.existingUser) {
      const signedInAs = req.dashboard?.user.email ?? null;
      const body = renderTemplate(req, 'invitation-existing', {
        ...view,
        canAccept: signedInAs === invitation.invitation.email,
        otherAccount: signedInAs !== null && signedInAs !== invitation.invitation.email,
        loginHref: `${DASHBOARD_BASE}/login?next=${encodeURIComponent(`${DASHBOARD_BASE}/invitations/${token}`)}`,
      });
      return sendPublicPage(req, res, { title: t.invitation.title, body, status });
    }
    if (invitation.pendingSecret) {
      const uri = s.accounts.secondFactor.keyUri(invitation.pendingSecret, invitation.invitation.email);
      const body = renderTemplate(req, 'invitation-code', { ...view, qrSvg: await totpQrSvg(uri), secret: groupedSecret(invitation.pendingSecret), uri });
      return sendPublicPage(req, res, { title: t.invitation.title, body, status });
    }
    sendPublicPage(req, res, { title: t.invitation.title, body: renderTemplate(req, 'invitation-password', view), status });
  }

  router.get('/invitations/:token', async (req, res) => {
    const invitation = await opened(req, res);
    if (invitation) await show(req, res, invitation);
  });

  router.post('/invitations/:token/password', async (req, res) => {
    const invitation = await opened(req, res);
    if (!invitation) return;
    const password = field(req, 'password');
    if (password !== field(req, 'password_repeat')) return show(req, res, invitation, { message: commonView(req).t.invitation.passwordsDiffer, status: 422 });
    try {
      await choosePassword(s, String(req.params.token), password);
      res.redirect(303, `${DASHBOARD_BASE}/invitations/${String(req.params.token)}`);
    } catch (error) {
      await show(req, res, invitation, refusalOf(req, error));
    }
  });

  router.post('/invitations/:token/second-factor', async (req, res) => {
    const invitation = await opened(req, res);
    if (!invitation) return;
    try {
      const accepted = await confirmEnrolment(s, String(req.params.token), field(req, 'code'), clientOf(req));
      setCookie(res, cookies, cookies.session, accepted.session.id, cookieLifetimes.session);
      const { t } = commonView(req);
      // The codes are in this answer only: never stored readable, never shown again.
      res.set('Cache-Control', 'no-store');
      sendPublicPage(req, res, {
        title: t.invitation.title,
        body: renderTemplate(req, 'invitation-done', { recovery: recoveryCodesView(t, accepted.user.email, accepted.recoveryCodes) }),
      });
    } catch (error) {
      await show(req, res, invitation, refusalOf(req, error));
    }
  });

  router.post('/invitations/:token/accept', async (req, res) => {
    const invitation = await opened(req, res);
    if (!invitation) return;
    if (!req.dashboard)
      return res.redirect(303, `${DASHBOARD_BASE}/login?next=${encodeURIComponent(`${DASHBOARD_BASE}/invitations/${String(req.params.token)}`)}`);
    try {
      await acceptAsUser(s, String(req.params.token), req.dashboard, clientOf(req));
      res.redirect(303, DASHBOARD_BASE);
    } catch (error) {
      await show(req, res, invitation, refusalOf(req, error));
    }
  });
  return router;
}
