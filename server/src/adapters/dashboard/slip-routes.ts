import { Router, type Request, type Response } from 'express';
import type { Services } from '../../app/services.js';
import { verifySlip } from '../../app/slip-verifications.js';
import { DomainError } from '../../domain/errors.js';
import { roleMay } from '../../domain/permissions.js';
import type { SlipVerification } from '../../domain/slip-verification.js';
import { formatBaht, formatDateTime } from '../pages/people-formats.js';
import { slipSent } from '../pages/slip-upload.js';
import { slipProblemOf, slipWords } from '../pages/slip-words.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPage } from './layout.js';
import { formBody, memberOf, text } from './money-pages.js';
import { requireAbility } from './session.js';

/** Where a slip photo is posted (read as `multipart/form-data` by the page body, ../pages/slip-upload.ts). */
export const SLIP_CHECK_PATH = `${DASHBOARD_BASE}/slips`;

const PAYMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** "Check a slip": the form of Receive and of a payment's page (that payment's id, when it is one's); null without slips:write. */
export function slipFormOf(req: Request, paymentId: string | null = null): string | null {
  if (!roleMay(memberOf(req).role, 'slips:write')) return null;
  return renderTemplate(req, 'slip-form', { slip: slipWords[commonView(req).lang], paymentId });
}

/**
 * A slip checked in the dashboard through the API's own use case (`verifySlip`): the verdict said large in the page's
 * language, with the bank's amount in baht and its time in Bangkok, and the form again for the next slip. Members with
 * slips:write (owners, admins, support, cashiers).
 */
export function slipRoutes(s: Services): Router {
  const router = Router();
  router.post('/slips', requireAbility('slips:write'), async (req, res) => {
    const { lang } = commonView(req);
    const words = slipWords[lang];
    const asked = text(formBody(req).payment_id);
    const paymentId = PAYMENT_ID.test(asked) ? asked : null;
    const answer = (view: { problem?: string; verification?: SlipVerification }, status = 200) => sendVerdict(req, res, paymentId, view, status);
    const slip = slipSent(req);
    if (slip === 'nothing') return answer({ problem: words.nothingSent }, 422);
    if (slip === 'too_large') return answer({ problem: words.tooLarge }, 413);
    try {
      answer({ verification: await verifySlip(s, memberOf(req).merchant, { slip, paymentId: paymentId ?? undefined }) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      answer({ problem: slipProblemOf(words, error.code) }, error.code === 'service_unavailable' ? 503 : 422);
    }
  });
  return router;
}

function sendVerdict(req: Request, res: Response, paymentId: string | null, view: { problem?: string; verification?: SlipVerification }, status: number) {
  const { lang, t } = commonView(req);
  const words = slipWords[lang];
  const v = view.verification;
  const canSeePayments = roleMay(memberOf(req).role, 'payments:read');
  const body = renderTemplate(req, 'slip-verdict', {
    slip: words,
    problem: view.problem ?? null,
    backUrl: paymentId ? `${DASHBOARD_BASE}/payments/${paymentId}` : `${DASHBOARD_BASE}/receive`,
    backLabel: paymentId ?? t.layout.receive,
    verdict: v
      ? {
          status: v.status,
          words: words.verdicts[v.status],
          amount: v.amount === null ? null : formatBaht(v.amount),
          paidAt: v.paidAt ? formatDateTime(lang, v.paidAt) : null,
          firstVerifiedAt: v.status === 'duplicate' && v.firstVerifiedAt ? formatDateTime(lang, v.firstVerifiedAt) : null,
          transRef: v.slip.transRef,
          paymentId: v.paymentId,
          paymentUrl: v.paymentId && canSeePayments ? `${DASHBOARD_BASE}/payments/${v.paymentId}` : null,
        }
      : null,
    slipForm: slipFormOf(req, paymentId),
  });
  sendPage(req, res, {
    title: v ? `${words.title}: ${words.verdicts[v.status].title}` : words.title,
    active: paymentId ? 'payments' : 'receive',
    body,
    status,
  });
}
