import type { Withdrawal } from '../../../domain/withdrawal.js';
import type { WithdrawalRepository } from '../../../ports/ledger.js';
import { definedOnly, pageOf, whereCreatedWithin, type Db } from './query.js';

interface WithdrawalRow {
  id: string;
  merchant_id: string;
  mode: Withdrawal['mode'];
  amount: number | string;
  currency: 'THB';
  status: Withdrawal['status'];
  description: string | null;
  bank_code: string;
  account_number: string;
  account_name: string;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

const toWithdrawal = (row: WithdrawalRow): Withdrawal => ({
  id: row.id,
  merchantId: row.merchant_id,
  mode: row.mode,
  amount: Number(row.amount),
  currency: row.currency,
  status: row.status,
  description: row.description,
  destination: { bankCode: row.bank_code, accountNumber: row.account_number, accountName: row.account_name },
  failureCode: row.failure_code,
  failureMessage: row.failure_message,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
});

const toRow = (w: Withdrawal): WithdrawalRow => ({
  id: w.id,
  merchant_id: w.merchantId,
  mode: w.mode,
  amount: w.amount,
  currency: w.currency,
  status: w.status,
  description: w.description,
  bank_code: w.destination.bankCode,
  account_number: w.destination.accountNumber,
  account_name: w.destination.accountName,
  failure_code: w.failureCode,
  failure_message: w.failureMessage,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
  completed_at: w.completedAt,
});

export const withdrawalRepository = (db: Db): WithdrawalRepository => ({
  async insert(withdrawal) {
    await db('withdrawals').insert(toRow(withdrawal));
  },
  async update(w) {
    await db('withdrawals').where({ id: w.id }).update({
      status: w.status,
      failure_code: w.failureCode,
      failure_message: w.failureMessage,
      updated_at: w.updatedAt,
      completed_at: w.completedAt,
    });
  },
  async findById(merchantId, id) {
    const row = await db<WithdrawalRow>('withdrawals').where({ id, merchant_id: merchantId }).first();
    return row ? toWithdrawal(row) : null;
  },
  async lockById(id) {
    const row = await db<WithdrawalRow>('withdrawals').where({ id }).forUpdate().first();
    return row ? toWithdrawal(row) : null;
  },
  async list(merchantId, filter, page) {
    const query = db('withdrawals').where(definedOnly({ merchant_id: merchantId, status: filter.status }));
    return pageOf(db, 'withdrawals', whereCreatedWithin(query, filter), page, toWithdrawal);
  },
  async lockInFlight(mode, statuses, limit) {
    const rows = await db<WithdrawalRow>('withdrawals')
      .where({ mode })
      .whereIn('status', [...statuses])
      .orderBy('updated_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return rows.map(toWithdrawal);
  },
});
