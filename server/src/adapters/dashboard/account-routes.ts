import { Router, type Request, type Response } from 'express';
import { changePassword, changeSecondFactor, newSecondFactorSecret, regenerateRecoveryCodes, unusedRecoveryCodes } from '../../app/account.js';
import { openSessions, signOutElsewhere } from '../../app/dashboard-sessions.js';
import type { Services } from '../../app/services.js';
import { field, refusalOf } from './forms.js';
import { commonView, renderTemplate, sendPage } from './layout.js';
import { formatDateTime } from '../pages/people-formats.js';
import { fill } from './messages.js';
import { recoveryCodesView } from './recovery-codes-view.js';
import { clientOf, signedIn } from './request-context.js';
import { groupedSecret, totpQrSvg } from './totp-qr.js';

/** The member's own account: password, second factor, recovery codes, open sessions. */
export function accountRoutes(s: Services): Router {
  const router = Router();

  async function accountPage(req: Request, res: Response, extra: { notice?: string; error?: string; status?: number; codes?: string[] } = {}) {
    const context = signedIn(req);
    const { t, lang } = commonView(req);
    const sessions = (await openSessions(s, context.user.id)).map((session) => ({
      current: session.idHash === context.session.idHash,
      signedInAt: formatDateTime(lang, session.verifiedAt ?? session.createdAt),
      lastSeen: formatDateTime(lang, session.lastSeenAt),
      from: [session.clientAddress, session.userAgent].filter(Boolean).join(' · '),
    }));
    const body = renderTemplate(req, 'account', {
      email: context.user.email,
      recoveryLeft: fill(t.account.recoveryLeft, { count: await unusedRecoveryCodes(s, context.user.id) }),
      sessions,
      others: sessions.length > 1,
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      recovery: extra.codes ? recoveryCodesView(t, context.user.email, extra.codes) : null,
    });
    sendPage(req, res, { title: t.account.title, active: 'account', body, status: extra.status });
  }

  async function secondFactorPage(req: Request, res: Response, secret: string, error: { message: string; status: number } | null = null) {
    const { t } = commonView(req);
    const uri = s.accounts.secondFactor.keyUri(secret, signedIn(req).user.email);
    const body = renderTemplate(req, 'account-second-factor', {
      secret,
      groupedSecret: groupedSecret(secret),
      qrSvg: await totpQrSvg(uri),
      error: error?.message ?? null,
    });
    sendPage(req, res, { title: t.account.secondFactorTitle, active: 'account', body, status: error?.status });
  }

  router.get('/account', (req, res) => accountPage(req, res));

  router.post('/account/password', async (req, res) => {
    try {
      const { endedSessions } = await changePassword(
        s,
        signedIn(req),
        { current: field(req, 'current_password'), next: field(req, 'new_password') },
        clientOf(req),
      );
      await accountPage(req, res, { notice: fill(commonView(req).t.account.passwordChanged, { count: endedSessions }) });
    } catch (error) {
      const refusal = refusalOf(req, error);
      await accountPage(req, res, { error: refusal.message, status: refusal.status });
    }
  });

  router.get('/account/second-factor', (req, res) => secondFactorPage(req, res, newSecondFactorSecret(s)));

  router.post('/account/second-factor', async (req, res) => {
    const secret = field(req, 'secret');
    try {
      await changeSecondFactor(s, signedIn(req), { password: field(req, 'password'), secret, code: field(req, 'code') }, clientOf(req));
      await accountPage(req, res, { notice: commonView(req).t.account.secondFactorChanged });
    } catch (error) {
      const refusal = refusalOf(req, error);
      await secondFactorPage(req, res, /^[A-Z2-7]{32}$/.test(secret) ? secret : newSecondFactorSecret(s), refusal);
    }
  });

  router.post('/account/recovery-codes', async (req, res) => {
    try {
      const codes = await regenerateRecoveryCodes(s, signedIn(req), { password: field(req, 'password') }, clientOf(req));
      res.set('Cache-Control', 'no-store');
      await accountPage(req, res, { notice: commonView(req).t.account.regenerated, codes });
    } catch (error) {
      const refusal = refusalOf(req, error);
      await accountPage(req, res, { error: refusal.message, status: refusal.status });
    }
  });

  router.post('/account/sessions/sign-out-others', async (req, res) => {
    const ended = await signOutElsewhere(s, signedIn(req), clientOf(req));
    await accountPage(req, res, { notice: fill(commonView(req).t.account.signedOutElsewhere, { count: ended }) });
  });
  return router;
}
