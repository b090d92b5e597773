import { Router, type Request, type Response } from 'express';
import { createQrCode } from '../../app/create-qr-code.js';
import type { Services } from '../../app/services.js';
import { tillDay, TILL_DAY_LIMIT } from '../../app/till-counter.js';
import { listTills, retrieveTill, tillTakingPayments } from '../../app/tills.js';
import { DomainError } from '../../domain/errors.js';
import { MAX_CHARGE, MIN_CHARGE, parseBaht } from '../../domain/money.js';
import type { Payment } from '../../domain/payment.js';
import { roleMay } from '../../domain/permissions.js';
import { MAX_ACTIVE_TILLS, type Till } from '../../domain/till.js';
import { timeLeft } from '../pages/formatting.js';
import { cookieLifetimes, readCookie, setCookie, type DashboardCookies } from './cookies.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPage, sendRefusal } from './layout.js';
import { fill } from './messages.js';
import { bangkokDateTimeOf } from '../../domain/bangkok-day.js';
import { formatBaht } from '../pages/people-formats.js';
import { formBody, isFormKey, memberOf, text } from './money-pages.js';
import { formKey, onceOnly } from './once-only.js';
import { refusalText } from './refusal-words.js';
import { requireAbility } from './session.js';
import { slipFormOf } from './slip-routes.js';

const REFERENCE_MAX = 35;
const keypadKeys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0', 'erase'] as const;

/** The merchant's active tills, newest first (at most 100 are active). */
async function activeTills(s: Services, req: Request): Promise<Till[]> {
  const page = await listTills(s, memberOf(req).merchant, { limit: MAX_ACTIVE_TILLS * 5, offset: 0 });
  return page.items.filter((till) => till.status === 'active');
}

/**
 * Receive (รับเงิน): a till's counter in the dashboard. An amount in baht and an optional reference make a QR payment
 * at the till (once per form, whatever the double submits), shown full-screen here with its live status; below, the
 * till's payments of the current Bangkok day. Owners, admins, support and cashiers (`receive`).
 */
export function receiveRoutes(s: Services, cookies: DashboardCookies): Router {
  const router = Router();
  router.use('/receive', requireAbility('receive'));

  async function receivePage(req: Request, res: Response, extra: { problem?: string; amount?: string; reference?: string; status?: number } = {}) {
    const { t } = commonView(req);
    const { merchant, role } = memberOf(req);
    const tills = await activeTills(s, req);
    const asked = text(req.query.till) || text(formBody(req).till_id) || readCookie(req, cookies.till);
    const till = tills.find((candidate) => candidate.id === asked) ?? tills[0] ?? null;
    if (till && till.id !== readCookie(req, cookies.till)) setCookie(res, cookies, cookies.till, till.id, cookieLifetimes.till); // remembered on this device
    const day = till ? await tillDay(s, merchant, till.id) : null;
    const body = renderTemplate(req, 'receive', {
      problem: extra.problem ?? null,
      settingsUrl: roleMay(role, 'tills:write') ? `${DASHBOARD_BASE}/settings/tills` : null,
      till,
      tillChoices: tills.length > 1 ? tills.map((choice) => ({ id: choice.id, name: choice.name, selected: choice.id === till?.id })) : [],
      key: formKey(),
      amount: extra.amount ?? '',
      reference: extra.reference ?? '',
      keys: keypadKeys.map((key) => (key === 'erase' ? { key, text: '⌫', label: t.receive.erase } : { key, text: key, label: null })),
      figures: day ? fill(t.receive.todayFigures, { count: day.succeededCount, amount: formatBaht(day.succeededTotal) }) : '',
      more: day?.more ? fill(t.receive.todayMore, { limit: TILL_DAY_LIMIT }) : null,
      rows: (day?.payments ?? []).map((p: Payment) => ({
        id: p.id,
        time: bangkokDateTimeOf(p.createdAt).slice(11, 16),
        amount: formatBaht(p.amount),
        reference: p.reference ?? '',
        status: p.status,
        statusText: t.receive[p.status],
      })),
      slipForm: slipFormOf(req),
    });
    sendPage(req, res, { title: t.layout.receive, active: 'receive', body, status: extra.status });
  }

  router.get('/receive', (req, res) => receivePage(req, res));

  // A QR payment at the till, once per form: a double submit gets the first one's payment.
  router.post('/receive', async (req, res) => {
    const { t } = commonView(req);
    const { merchant } = memberOf(req);
    const form = formBody(req);
    const given = text(form.amount).trim();
    const reference = text(form.reference).trim();
    const tillId = text(form.till_id);
    const key = text(form.key);
    const amount = parseBaht(given);
    const again = (problem: string, status = 422) => receivePage(req, res, { problem, amount: given, reference, status });
    if (amount === null || amount < MIN_CHARGE || amount > MAX_CHARGE) return again(t.receive.badAmount);
    if ([...reference].length > REFERENCE_MAX || !isFormKey(key)) return again(t.layout.formExpired, 400);
    try {
      await tillTakingPayments(s, merchant, tillId); // an active till of this merchant, else 422 till_unavailable
      const outcome = await onceOnly(s, merchant.id, key, ['receive', tillId, amount, reference], async (tx) => {
        const made = await createQrCode(tx, s, merchant, { amount, currency: 'THB', reference: reference || undefined, tillId });
        return made.payment.id;
      });
      if (!outcome.done) return again(t.layout.formExpired, 409);
      res.redirect(303, `${DASHBOARD_BASE}/receive/sales/${encodeURIComponent(outcome.id)}`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await again(refusalText(commonView(req).lang, error));
    }
  });

  // The sale, full-screen on this device: the QR, the amount, the live status (the checkout page's stream), "New sale".
  router.get('/receive/sales/:payment_id', async (req, res) => {
    const { t } = commonView(req);
    const { merchant } = memberOf(req);
    const payment = await s.uow.repos.payments.findById(merchant.id, String(req.params.payment_id));
    if (!payment?.tillId || !payment.qrCodeId || !payment.expiresAt) return sendRefusal(req, res, 404, 'notFound'); // Receive shows its own sales only
    const till = await retrieveTill(s, merchant, payment.tillId);
    const pending = payment.status === 'pending';
    const body = renderTemplate(req, 'receive-sale', {
      status: payment.status,
      statusText: t.receive[payment.status],
      pending,
      tillName: till.name,
      reference: payment.reference,
      amount: formatBaht(payment.amount),
      amountSatang: payment.amount,
      qrImage: `/Thai/qr-codes/${payment.qrCodeId}/image?format=svg`,
      eventsUrl: `/Thai/pay/${payment.qrCodeId}/events`,
      expiresAt: payment.expiresAt.toISOString(),
      remaining: timeLeft(payment.expiresAt, s.clock.now()),
    });
    sendPage(req, res, { title: t.layout.receive, active: 'receive', body });
  });
  return router;
}
