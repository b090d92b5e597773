import { Router } from 'express';
import type { components } from '@payment-qr/contract';
import { writeLedgerCsv } from '../../csv/report-files.js';
import { listLedger, retrieveBalance } from '../../../app/ledger.js';
import { ledgerFile } from '../../../app/reports.js';
import type { Services } from '../../../app/services.js';
import { createWithdrawal, listWithdrawals, retrieveWithdrawal } from '../../../app/withdrawals.js';
import { ledgerEntryTypes } from '../../../domain/balance.js';
import { withdrawalStatuses } from '../../../domain/withdrawal.js';
import { toBalanceBody, toBalanceTransactionBody, toWithdrawalBody } from '../balance-mappers.js';
import { jsonResponse } from '../errors.js';
import { idempotentMutation } from '../idempotency.js';
import { dateRangeOf, enumParam, pageRequestOf } from '../list-query.js';
import { toListBody } from '../mappers.js';
import { merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

/** The merchant's balance, its ledger, and withdrawals from it. */
export function balanceRoutes(s: Services): Router {
  const router = Router();
  unknownWhenUnstorable(router, { withdrawal_id: 'withdrawal_not_found' });

  router.get('/balance', async (_req, res) => {
    res.json(toBalanceBody(await retrieveBalance(s, merchantOf(res).id)));
  });

  router.get('/balance/transactions', async (req, res) => {
    const page = pageRequestOf(req);
    const filter = { ...dateRangeOf(req), type: enumParam(req, 'type', ledgerEntryTypes) };
    const format = enumParam(req, 'format', ['json', 'csv'] as const) ?? 'json';
    // For spreadsheets and accounting tools: the whole filtered range, not one page.
    if (format === 'csv') return writeLedgerCsv(await ledgerFile(s, merchantOf(res), filter), res.type('text/csv'));
    res.json(toListBody('balance_transactions', await listLedger(s, merchantOf(res), filter, page), page, toBalanceTransactionBody));
  });

  router.post(
    '/withdrawals',
    idempotentMutation(s, 'createWithdrawal', async ({ tx, merchant, audit }, req) => {
      const body = req.body as components['schemas']['CreateWithdrawalRequest'];
      return jsonResponse(200, toWithdrawalBody(await createWithdrawal(tx, s, merchant, { amount: body.amount, description: body.description }, audit)));
    }),
  );

  router.get('/withdrawals', async (req, res) => {
    const page = pageRequestOf(req);
    const filter = { ...dateRangeOf(req), status: enumParam(req, 'status', withdrawalStatuses) };
    res.json(toListBody('withdrawals', await listWithdrawals(s, merchantOf(res), filter, page), page, toWithdrawalBody));
  });

  router.get('/withdrawals/:withdrawal_id', async (req, res) => {
    res.json(toWithdrawalBody(await retrieveWithdrawal(s, merchantOf(res), String(req.params.withdrawal_id))));
  });

  return router;
}
