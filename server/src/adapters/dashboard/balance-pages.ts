import { Router, type Request, type Response } from 'express';
import { listLedger, retrieveBalance } from '../../app/ledger.js';
import { ledgerFile } from '../../app/reports.js';
import type { Services } from '../../app/services.js';
import { createWithdrawal, listWithdrawals, payoutAccountOf } from '../../app/withdrawals.js';
import { ledgerEntryTypes, type LedgerEntryType } from '../../domain/balance.js';
import { parseBaht } from '../../domain/money.js';
import { roleMay } from '../../domain/permissions.js';
import { writeLedgerCsv } from '../csv/report-files.js';
import { sendPage } from './layout.js';
import { fill } from './money-messages.js';
import { formatBaht } from '../pages/people-formats.js';
import { maskedAccount } from './money-format.js';
import { dateRangeOf, formBody, formOf, isFormKey, memberOf, oneOf, PAGE_SIZE, pageOf, pager, problemOf, text, wordsOf } from './money-pages.js';
import { renderMoney } from './money-templates.js';
import { ledgerRow, withdrawalRow } from './money-views.js';
import { formKey, onceOnly } from './once-only.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

/** Balance: the figures, withdrawals and Withdraw, the ledger with its filters and CSV. */
export function balancePages(s: Services): Router {
  const router = Router();
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

  router.get('/balance', requireAbility('balance:read'), requireAbility('withdrawals:read'), async (req, res) => {
    const t = wordsOf(req);
    const done = text(req.query.withdrawn);
    res.set('Cache-Control', 'no-store');
    await showBalance(req, res, { notice: done ? fill(t.withdrawDone, { amount: formatBaht(Number(req.query.amount) || 0), withdrawal: done }) : undefined });
  });

  router.get('/balance/ledger.csv', requireAbility('balance:read'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const { range } = dateRangeOf(req, t);
    const type = oneOf<LedgerEntryType>(req.query.type, ledgerEntryTypes);
    const parts = await ledgerFile(s, merchant, { ...range, type });
    res.set({ 'Cache-Control': 'no-store', 'Content-Disposition': 'attachment; filename="ledger.csv"' });
    await writeLedgerCsv(parts, res.type('text/csv'));
  });

  // Withdraw, step one: check the amount, show where it goes; step two: once per form, audited.
  router.post('/balance/withdraw', requireAbility('withdrawals:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const amount = parseBaht(text(formBody(req).amount));
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

  router.post('/balance/withdraw/confirm', requireAbility('withdrawals:write'), async (req, res) => {
    const t = wordsOf(req);
    const { merchant } = memberOf(req);
    const amount = Number(text(formBody(req).amount));
    const key = text(formBody(req).key);
    if (!Number.isSafeInteger(amount) || amount <= 0 || !isFormKey(key)) return showBalance(req, res, { problem: t.badAmount, status: 400 });
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

  return router;
}
