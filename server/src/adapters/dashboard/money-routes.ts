import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { homeFigures } from '../../app/dashboard-home.js';
import { listAuditEntries } from '../../app/audit.js';
import { listLedger, retrieveBalance } from '../../app/ledger.js';
import { paymentDetail } from '../../app/payment-detail.js';
import { findPayments } from '../../app/payment-search.js';
import { refundPayment, sendRefund } from '../../app/refund-payment.js';
import type { Services } from '../../app/services.js';
import { settlePayment, type BankOutcome } from '../../app/settle-payment.js';
import { createWithdrawal, listWithdrawals, payoutAccountOf } from '../../app/withdrawals.js';
import { bangkokDayEnd, bangkokDayStart, isCalendarDate } from '../../domain/bangkok-day.js';
import { ledgerEntryTypes, type LedgerEntryType } from '../../domain/balance.js';
import { DomainError } from '../../domain/errors.js';
import { parseBaht } from '../../domain/money.js';
import type { DateRange, PageRequest } from '../../domain/page.js';
import type { PaymentStatus } from '../../domain/payment.js';
import { roleMay } from '../../domain/permissions.js';
import { refundableAmount } from '../../domain/refund.js';
import { csvFile } from '../csv/csv-file.js';
import { sendPage, sendRefusal } from './layout.js';
import { liveStream, type LiveStreamOptions } from './live-stream.js';
import { fill, moneyMessages, type MoneyWords } from './money-messages.js';
import { formatBaht, maskedAccount } from './money-format.js';
import { renderMoney } from './money-templates.js';
import { auditRow, auditWho, homeLiveView, homeView, ledgerRow, paymentRow, paymentView, withdrawalRow } from './money-views.js';
import { formKey, onceOnly } from './once-only.js';
import type { MerchantPaymentFeed } from './payment-feed.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

export interface MoneyPagesOptions extends LiveStreamOptions {
  /** PUBLIC_BASE_URL (null: the origin the request was sent to), for the checkout link of a pending payment. */
  publicBaseUrl: string | null;
}

const PAGE_SIZE = 20;
const AUDIT_PAGE_SIZE = 50;
/** Rows a CSV download holds at most (newest first): a file per filtered period, not the whole history at once. */
export const CSV_MAX_ROWS = 10_000;
const statuses: readonly PaymentStatus[] = ['pending', 'succeeded', 'failed', 'expired', 'refunded'];
const testOutcomes = { succeed: { kind: 'succeeded', payer: {} }, fail: { kind: 'failed' }, expire: { kind: 'expired' } } as const satisfies Record<
  string,
  BankOutcome
>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** ?page=N (1 = newest) as an offset; nonsense is the first page. */
function pageOf(req: Request, limit: number): PageRequest & { number: number } {
  const asked = Number(text(req.query.page));
  const number = Number.isSafeInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  return { limit, offset: (number - 1) * limit, number };
}

/** from / to as Bangkok days; a wrong date is named, and left out of the filter. */
function dateRangeOf(req: Request, t: MoneyWords): { range: DateRange; problem: string | null } {
  const range: DateRange = {};
  const wrong: string[] = [];
  const from = text(req.query.from);
  const to = text(req.query.to);
  if (from && isCalendarDate(from)) range.startDate = bangkokDayStart(from);
  else if (from) wrong.push(from);
  if (to && isCalendarDate(to)) range.endDate = bangkokDayEnd(to);
  else if (to) wrong.push(to);
  return { range, problem: wrong.length > 0 ? fill(t.badFilter, { problem: wrong.join(', ') }) : null };
}

/** Newer / older links that keep the page's other query parameters. */
function pager(req: Request, path: string, page: { number: number }, more: boolean) {
  const link = (n: number) => {
    const query = new URLSearchParams(
      Object.entries(req.query).flatMap(([k, v]) => (typeof v === 'string' && k !== 'page' && k !== 'fragment' ? [[k, v]] : [])),
    );
    if (n > 1) query.set('page', String(n));
    const qs = query.toString();
    return qs ? `${path}?${qs}` : path;
  };
  const newer = page.number > 1 ? link(page.number - 1) : null;
  const older = more ? link(page.number + 1) : null;
  return newer || older ? { newer, older } : null;
}

const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T | undefined =>
  (allowed as readonly unknown[]).includes(value) ? (value as T) : undefined;

/** Home, Payments (list, search, a payment's page, refunds, test helpers), Balance (ledger, CSV, withdrawals) and the audit log. */
export function moneyRoutes(s: Services, feed: MerchantPaymentFeed, options: MoneyPagesOptions): Router {
  const router = Router();
  const may = requireAbility;
  const wordsOf = (req: Request) => moneyMessages[req.lang ?? 'th'];
  const memberOf = (req: Request) => {
    const { merchant, membership } = signedIn(req);
    return { merchant, role: membership.role };
  };
  // Every form of the session carries its CSRF token (checked by the shell on every POST).
  const formOf = (req: Request) => ({ csrfName: '_csrf', csrfToken: req.csrfToken ?? '' });
  const body = (req: Request): Record<string, unknown> => (req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {});
  const problemOf = (t: MoneyWords, error: unknown): string => {
    if (error instanceof DomainError) return fill(t.refused, { message: error.message });
    throw error;
  };

  // Home: the balance, what succeeded today and in the last 30 days, the chart, the latest payments (live).
  router.get('/', may('payments:read'), may('balance:read'), async (req, res) => {
    const t = wordsOf(req);
    const figures = await homeFigures(s, memberOf(req).merchant);
    res.set('Cache-Control', 'no-store');
    if (req.query.fragment === 'live') return void res.type('html').send(renderMoney('homeLive', homeLiveView(t, figures)));
    sendPage(req, res, { title: t.home, active: 'home', body: renderMoney('home', homeView(t, figures)) });
  });

  router.get(
    '/live',
    may('payments:read'),
    liveStream(feed, (req) => memberOf(req).merchant.id, options),
  );

  // Payments: newest first, filtered by status and Bangkok days, or an exact id or reference; paged without a total.
  router.get('/payments', may('payments:read'), async (req, res) => {
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
      title: `${t.payments} ${detail.payment.id}`,
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
      }),
    });
  };

  router.get('/payments/:payment_id', may('payments:read'), async (req, res) => {
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
  router.post('/payments/:payment_id/refund', may('refunds:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const paymentId = String(req.params.payment_id);
    const given = text(body(req).amount).trim();
    const reason = text(body(req).reason).trim().slice(0, 500);
    const detail = await paymentDetail(s, merchant, paymentId);
    const amount = given === '' ? refundableAmount(detail.payment) : parseBaht(given);
    if (amount === null || amount <= 0) return showPayment(req, res, { problem: t.badAmount, status: 400 });
    const back = `/dashboard/payments/${paymentId}`;
    sendPage(req, res, {
      title: t.refund,
      active: 'payments',
      body: renderMoney('confirm', {
        t,
        ...formOf(req),
        title: t.refund,
        question: fill(t.confirmRefund, { amount: formatBaht(amount), payment: paymentId }),
        reason,
        action: `${back}/refund/confirm`,
        fields: [
          { name: 'amount', value: String(amount) },
          { name: 'reason', value: reason },
          { name: 'key', value: formKey() },
        ],
        backUrl: back,
        backLabel: paymentId,
      }),
    });
  });

  // Refund, step two: once per form (a double submit refunds once), audited with the member, sent after it commits.
  router.post('/payments/:payment_id/refund/confirm', may('refunds:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const paymentId = String(req.params.payment_id);
    const amount = Number(text(body(req).amount));
    const reason = text(body(req).reason).trim().slice(0, 500) || undefined;
    const key = text(body(req).key);
    if (!Number.isSafeInteger(amount) || amount <= 0 || !/^[A-Za-z0-9_-]{16,64}$/.test(key))
      return showPayment(req, res, { problem: t.badAmount, status: 400 });
    const context = signedIn(req).audit;
    let made: { id: string; send?: () => Promise<unknown> } | null = null;
    try {
      const outcome = await onceOnly(s, merchant.id, key, ['refund', paymentId, amount, reason ?? null], async (tx) => {
        const refund = await refundPayment(tx, s, merchant, { paymentId, amount, reason }, context); // audited with the member
        made = { id: refund.id, send: () => sendRefund(s, merchant, refund) };
        return refund.id;
      });
      if (!outcome.done) return showPayment(req, res, { problem: t.inProgress, status: 409 });
      if (outcome.fresh && made) await (made as { send: () => Promise<unknown> }).send(); // the bank is called with no lock held
      res.redirect(303, `/dashboard/payments/${paymentId}?refunded=${encodeURIComponent(outcome.id)}&amount=${amount}`);
    } catch (error) {
      await showPayment(req, res, { problem: problemOf(t, error), status: 422 });
    }
  });

  // The test helpers of a test merchant's pending payment, as the API's /test/payments/{id}/...
  router.post('/payments/:payment_id/test/:outcome', may('payments:write'), async (req, res) => {
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

  // Balance: the figures, withdrawals, the ledger with its filters and CSV.
  const showBalance = async (req: Request, res: Response, extra: { notice?: string; problem?: string; status?: number } = {}) => {
    const t = wordsOf(req);
    const { merchant, role } = memberOf(req);
    const page = pageOf(req, PAGE_SIZE);
    const type = oneOf(req.query.type, ledgerEntryTypes);
    const { range, problem } = dateRangeOf(req, t);
    const [balance, withdrawals, ledger, account] = await Promise.all([
      retrieveBalance(s, merchant.id),
      listWithdrawals(s, merchant, {}, { limit: 10, offset: 0 }),
      listLedger(s, merchant, { ...range, type }, page),
      payoutAccountOf(s, merchant),
    ]);
    const csv = new URLSearchParams(
      Object.entries(req.query).flatMap(([k, v]) => (typeof v === 'string' && ['type', 'from', 'to'].includes(k) ? [[k, v]] : [])),
    );
    sendPage(req, res, {
      title: t.balance,
      active: 'balance',
      status: extra.status,
      body: renderMoney('balance', {
        t,
        ...formOf(req),
        notice: extra.notice,
        problem: extra.problem,
        available: formatBaht(balance.available),
        pending: formatBaht(balance.pending),
        payoutAccount: account ? maskedAccount(account) : t.noPayoutAccount,
        canWithdraw: roleMay(role, 'withdrawals:write') && account !== null,
        withdrawals: withdrawals.items.map((w) => withdrawalRow(t, w)),
        types: ledgerEntryTypes.map((value) => ({ value, label: t[`type_${value}`], selected: value === type })),
        query: { from: text(req.query.from), to: text(req.query.to) },
        ledgerProblem: problem,
        csvUrl: `/dashboard/balance/ledger.csv${csv.size > 0 ? `?${csv.toString()}` : ''}`,
        ledger: ledger.items.map((e) => ledgerRow(t, e)),
        pager: pager(req, '/dashboard/balance', page, page.offset + ledger.items.length < ledger.total),
      }),
    });
  };

  router.get('/balance', may('balance:read'), may('withdrawals:read'), async (req, res) => {
    const t = wordsOf(req);
    const done = text(req.query.withdrawn);
    res.set('Cache-Control', 'no-store');
    await showBalance(req, res, { notice: done ? fill(t.withdrawDone, { amount: formatBaht(Number(req.query.amount) || 0), withdrawal: done }) : undefined });
  });

  router.get('/balance/ledger.csv', may('balance:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const { range } = dateRangeOf(req, t);
    const type = oneOf<LedgerEntryType>(req.query.type, ledgerEntryTypes);
    const ledger = await listLedger(s, merchant, { ...range, type }, { limit: CSV_MAX_ROWS, offset: 0 });
    const columns = [
      'balance_transaction_id',
      'type',
      'amount',
      'fee',
      'fee_vat',
      'net',
      'currency',
      'source_id',
      'withdrawal_id',
      'available_on',
      'created_at',
    ];
    const rows = ledger.items.map((e) => [
      e.id,
      e.type,
      e.amount,
      e.fee,
      e.feeVat,
      e.net,
      e.currency,
      e.sourceId,
      e.withdrawalId,
      e.availableOn.toISOString(),
      e.createdAt.toISOString(),
    ]);
    res.set({ 'Cache-Control': 'no-store', 'Content-Disposition': 'attachment; filename="ledger.csv"' });
    res.type('text/csv').send(csvFile(columns, rows, { byteOrderMark: true }));
  });

  // Withdraw, step one: check the amount, show where it goes; step two: once per form, audited.
  router.post('/balance/withdraw', may('withdrawals:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const amount = parseBaht(text(body(req).amount));
    const account = await payoutAccountOf(s, merchant);
    if (amount === null || amount <= 0) return showBalance(req, res, { problem: t.badAmount, status: 400 });
    sendPage(req, res, {
      title: t.withdraw,
      active: 'balance',
      body: renderMoney('confirm', {
        t,
        ...formOf(req),
        title: t.withdraw,
        question: fill(t.confirmWithdraw, { amount: formatBaht(amount), account: account ? maskedAccount(account) : t.noPayoutAccount }),
        action: '/dashboard/balance/withdraw/confirm',
        fields: [
          { name: 'amount', value: String(amount) },
          { name: 'key', value: formKey() },
        ],
        backUrl: '/dashboard/balance',
        backLabel: t.balance,
      }),
    });
  });

  router.post('/balance/withdraw/confirm', may('withdrawals:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const amount = Number(text(body(req).amount));
    const key = text(body(req).key);
    if (!Number.isSafeInteger(amount) || amount <= 0 || !/^[A-Za-z0-9_-]{16,64}$/.test(key))
      return showBalance(req, res, { problem: t.badAmount, status: 400 });
    const context = signedIn(req).audit;
    try {
      const outcome = await onceOnly(s, merchant.id, key, ['withdraw', amount], async (tx) => {
        const withdrawal = await createWithdrawal(tx, s, merchant, { amount }, context); // audited with the member
        return withdrawal.id;
      });
      if (!outcome.done) return showBalance(req, res, { problem: t.inProgress, status: 409 });
      res.redirect(303, `/dashboard/balance?withdrawn=${encodeURIComponent(outcome.id)}&amount=${amount}`);
    } catch (error) {
      await showBalance(req, res, { problem: problemOf(t, error), status: 422 });
    }
  });

  // The audit log: newest first, paged, and as CSV.
  router.get('/audit', may('audit:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const page = pageOf(req, AUDIT_PAGE_SIZE);
    const entries = await listAuditEntries(s, merchant, page);
    res.set('Cache-Control', 'no-store');
    sendPage(req, res, {
      title: t.audit,
      active: 'audit',
      body: renderMoney('audit', {
        t,
        entries: entries.items.map((e) => auditRow(t, e)),
        pager: pager(req, '/dashboard/audit', page, page.offset + entries.items.length < entries.total),
      }),
    });
  });

  router.get('/audit.csv', may('audit:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const entries = await listAuditEntries(s, merchant, { limit: CSV_MAX_ROWS, offset: 0 });
    const columns = ['audit_entry_id', 'created_at', 'actor', 'channel', 'client_address', 'action', 'subject_id', 'details'];
    const rows = entries.items.map((e) => [
      e.id,
      e.createdAt.toISOString(),
      auditWho(t, e),
      e.context.channel,
      e.context.clientAddress,
      e.action,
      e.subjectId,
      JSON.stringify(e.details),
    ]);
    res.set({ 'Cache-Control': 'no-store', 'Content-Disposition': 'attachment; filename="audit-log.csv"' });
    res.type('text/csv').send(csvFile(columns, rows, { byteOrderMark: true }));
  });

  // Another merchant's payment is as unknown as one that does not exist.
  const unknownAsNotFound: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (error instanceof DomainError && error.code.endsWith('_not_found')) return sendRefusal(req, res, 404, 'notFound');
    next(error);
  };
  router.use(unknownAsNotFound);
  return router;
}
