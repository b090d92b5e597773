import { Router, type Request, type Response } from 'express';
import { paymentDetail } from '../../app/payment-detail.js';
import { findPayments } from '../../app/payment-search.js';
import { refundPayment, sendRefund } from '../../app/refund-payment.js';
import type { Services } from '../../app/services.js';
import { settlePayment, type BankOutcome } from '../../app/settle-payment.js';
import { parseBaht } from '../../domain/money.js';
import type { Payment, PaymentStatus } from '../../domain/payment.js';
import { roleMay } from '../../domain/permissions.js';
import { refundableAmount, refundAmountFor, type Refund } from '../../domain/refund.js';
import { sendPage } from './layout.js';
import { fill } from './money-messages.js';
import { formatBaht } from '../pages/people-formats.js';
import {
  dateRangeOf,
  formBody,
  formOf,
  isFormKey,
  memberOf,
  oneOf,
  PAGE_SIZE,
  pageOf,
  pager,
  problemOf,
  text,
  wordsOf,
  type MoneyPagesOptions,
} from './money-pages.js';
import { renderMoney } from './money-templates.js';
import { paymentRow, paymentView } from './money-views.js';
import { formKey, onceOnly } from './once-only.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';
import { slipFormOf } from './slip-routes.js';

/** How people name a payment: by its reference when it has one, else by its id. */
const paymentName = (payment: Payment): string => payment.reference ?? payment.id;

const statuses: readonly PaymentStatus[] = ['pending', 'succeeded', 'failed', 'expired', 'refunded'];
const testOutcomes = { succeed: { kind: 'succeeded', payer: {} }, fail: { kind: 'failed' }, expire: { kind: 'expired' } } as const satisfies Record<
  string,
  BankOutcome
>;

/** Payments: the list with its filters and search, a payment's page, its refund and the test helpers. */
export function paymentPages(s: Services, options: MoneyPagesOptions): Router {
  const router = Router();
  // Payments: newest first, filtered by status and Bangkok days, or an exact id or reference; paged without a total.
  router.get('/payments', requireAbility('payments:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const page = pageOf(req, PAGE_SIZE);
    const status = oneOf(req.query.status, statuses);
    const { range, problem } = dateRangeOf(req, t);
    const search = text(req.query.q).trim().slice(0, 255);
    const found = await findPayments(s, merchant, { ...range, status, search: search || undefined }, page);
    const rows = { t, caption: t.payments, rows: found.items.map((p) => paymentRow(t, p)) };
    res.set('Cache-Control', 'no-store');
    if (req.query.fragment === 'live') return void res.type('html').send(renderMoney('paymentRows', rows));
    const fragment = new URLSearchParams(Object.entries(req.query).flatMap(([k, v]) => (typeof v === 'string' && k !== 'fragment' ? [[k, v]] : [])));
    fragment.set('fragment', 'live');
    sendPage(req, res, {
      title: t.payments,
      active: 'payments',
      body: renderMoney('payments', {
        ...rows,
        query: { q: search, from: text(req.query.from), to: text(req.query.to) },
        statuses: statuses.map((value) => ({ value, label: t[`status_${value}`], selected: value === status })),
        problem,
        fragmentUrl: `/dashboard/payments?${fragment.toString()}`,
        pager: pager(req, '/dashboard/payments', page, found.more),
      }),
    });
  });

  const showPayment = async (req: Request, res: Response, extra: { notice?: string; problem?: string; status?: number } = {}) => {
    const t = wordsOf(req);
    const { merchant, role } = memberOf(req);
    const detail = await paymentDetail(s, merchant, String(req.params.payment_id));
    const qr = detail.payableQrCode;
    const base = options.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? ''}`;
    const view = paymentView(t, detail, qr ? `${base}/Thai/pay/${qr.id}` : null);
    const pending = detail.payment.status === 'pending';
    sendPage(req, res, {
      title: `${t.payments} ${paymentName(detail.payment)}`,
      active: 'payments',
      status: extra.status,
      body: renderMoney('payment', {
        ...view,
        ...formOf(req),
        notice: extra.notice,
        problem: extra.problem,
        canRefund: roleMay(role, 'refunds:write') && detail.refundable > 0,
        testHelpers:
          merchant.mode === 'test' && pending && roleMay(role, 'payments:write')
            ? { outcomes: (['succeed', 'fail', 'expire'] as const).map((outcome) => ({ outcome, label: t[outcome], id: detail.payment.id })) }
            : null,
        slipForm: slipFormOf(req, detail.payment.id),
      }),
    });
  };

  router.get('/payments/:payment_id', requireAbility('payments:read'), async (req, res) => {
    const t = wordsOf(req);
    const done = text(req.query.refunded);
    const status = oneOf(req.query.tested, statuses);
    const notice = done
      ? fill(t.refundDone, { amount: formatBaht(Number(req.query.amount) || 0), refund: done })
      : status
        ? fill(t.testDone, { status: t[`status_${status}`] })
        : undefined;
    res.set('Cache-Control', 'no-store');
    await showPayment(req, res, { notice });
  });

  // Refund, step one: check the amount and show what will happen; nothing changes yet.
  router.post('/payments/:payment_id/refund', requireAbility('refunds:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const paymentId = String(req.params.payment_id);
    const given = text(formBody(req).amount).trim();
    const reason = text(formBody(req).reason).trim().slice(0, 500);
    const detail = await paymentDetail(s, merchant, paymentId);
    const amount = given === '' ? refundableAmount(detail.payment) : parseBaht(given);
    if (amount === null || amount <= 0) return showPayment(req, res, { problem: t.badAmount, status: 400 });
    try {
      refundAmountFor(detail.payment, amount); // more than is refundable is said now, before the confirmation
    } catch (error) {
      return showPayment(req, res, { problem: problemOf(t, error), status: 422 });
    }
    const back = `/dashboard/payments/${paymentId}`;
    sendPage(req, res, {
      title: t.refund,
      active: 'payments',
      body: renderMoney('confirm', {
        t,
        ...formOf(req),
        title: t.refund,
        question: fill(t.confirmRefund, { amount: formatBaht(amount), payment: paymentName(detail.payment) }),
        reason,
        action: `${back}/refund/confirm`,
        fields: [
          { name: 'amount', value: String(amount) },
          { name: 'reason', value: reason },
          { name: 'key', value: formKey() },
        ],
        backUrl: back,
        backLabel: paymentName(detail.payment),
      }),
    });
  });

  // Refund, step two: once per form (a double submit refunds once), audited with the member, sent after it commits.
  router.post('/payments/:payment_id/refund/confirm', requireAbility('refunds:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const paymentId = String(req.params.payment_id);
    const amount = Number(text(formBody(req).amount));
    const reason = text(formBody(req).reason).trim().slice(0, 500) || undefined;
    const key = text(formBody(req).key);
    if (!Number.isSafeInteger(amount) || amount <= 0 || !isFormKey(key)) return showPayment(req, res, { problem: t.badAmount, status: 400 });
    const context = signedIn(req).audit;
    const made: { refund?: Refund } = {};
    try {
      const outcome = await onceOnly(s, merchant.id, key, ['refund', paymentId, amount, reason ?? null], async (tx) => {
        const refund = await refundPayment(tx, s, merchant, { paymentId, amount, reason }, context); // audited with the member
        made.refund = refund;
        return refund.id;
      });
      if (!outcome.done) return showPayment(req, res, { problem: t.inProgress, status: 409 });
      if (outcome.fresh && made.refund) await sendRefund(s, merchant, made.refund); // the bank is called once it committed, no lock held
      res.redirect(303, `/dashboard/payments/${paymentId}?refunded=${encodeURIComponent(outcome.id)}&amount=${amount}`);
    } catch (error) {
      await showPayment(req, res, { problem: problemOf(t, error), status: 422 });
    }
  });

  // The test helpers of a test merchant's pending payment, as the API's /test/payments/{id}/...
  router.post('/payments/:payment_id/test/:outcome', requireAbility('payments:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const paymentId = String(req.params.payment_id);
    const outcome = testOutcomes[String(req.params.outcome) as keyof typeof testOutcomes];
    if (!outcome) return void res.status(404).end();
    const context = signedIn(req).audit;
    try {
      const payment = await s.uow.run((tx) => settlePayment(tx, s, merchant, paymentId, outcome, context));
      res.redirect(303, `/dashboard/payments/${paymentId}?tested=${payment.status}`);
    } catch (error) {
      await showPayment(req, res, { problem: problemOf(t, error), status: 422 });
    }
  });

  return router;
}
