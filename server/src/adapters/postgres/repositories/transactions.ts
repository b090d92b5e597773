import { transactionStatuses, transactionTypes, type Transaction } from '../../../domain/transaction.js';
import type { TransactionRepository } from '../../../ports/repositories.js';
import { definedOnly, newestAcross, pageOf, whereCreatedWithin, insertNow, type Insert, type Db } from './query.js';

interface TransactionRow {
  id: string;
  merchant_id: string;
  payment_id: string;
  refund_id: string | null;
  type: Transaction['type'];
  status: Transaction['status'];
  amount: number;
  currency: 'THB';
  created_at: Date;
}

const toTransaction = (row: TransactionRow): Transaction => ({
  id: row.id,
  merchantId: row.merchant_id,
  paymentId: row.payment_id,
  refundId: row.refund_id,
  type: row.type,
  status: row.status,
  amount: row.amount,
  currency: row.currency,
  createdAt: row.created_at,
});

/** A transaction's row, through `insert` (also how a QR code's held writes add it: ../unit-of-work.ts). */
export const insertTransaction = (insert: Insert, t: Transaction): Promise<void> =>
  insert('transactions', {
    id: t.id,
    merchant_id: t.merchantId,
    payment_id: t.paymentId,
    refund_id: t.refundId,
    type: t.type,
    status: t.status,
    amount: t.amount,
    currency: t.currency,
    created_at: t.createdAt,
  } satisfies TransactionRow);

export const transactionRepository = (db: Db, insert: Insert = insertNow(db)): TransactionRepository => ({
  async insert(t) {
    await insertTransaction(insert, t);
  },
  async updatePaymentTransaction(paymentId, state) {
    await db('transactions').where({ payment_id: paymentId }).whereNull('refund_id').update(state);
  },
  async updateRefundTransaction(refundId, status) {
    await db('transactions').where({ refund_id: refundId }).update({ status });
  },
  async list(merchantId, filter, page) {
    // Every type and status not filtered on is named: the one index, transactions_by_merchant_type_status (migration
    // 0028_one_list_index_each), then serves a date range too, a range scan per pair, as for a count.
    const types = filter.type ? [filter.type] : transactionTypes;
    const statuses = filter.status ? [filter.status] : transactionStatuses;
    const query = whereCreatedWithin(db('transactions').where({ merchant_id: merchantId }).whereIn('type', types).whereIn('status', statuses), filter);
    // Without a date range the total is the sum of the maintained counts (migration 0012_count_changes), not a count of every row.
    const matching = definedOnly({ merchant_id: merchantId, status: filter.status, type: filter.type });
    const counted = filter.startDate || filter.endDate ? undefined : db('transaction_totals').where(matching).sum<{ n: number | string | null }[]>({ n: 'n' });
    const total = counted?.then((rows) => Number(rows[0]?.n ?? 0));
    // A filter on both reads the index directly; otherwise every (type, status) pair it allows is merged.
    const groups = types.flatMap((type) => statuses.map((status) => ({ merchant_id: merchantId, type, status })));
    const ids = groups.length > 1 ? newestAcross(db, 'transactions', groups, filter, page) : undefined;
    return pageOf(db, 'transactions', query, page, toTransaction, { total, ids });
  },
});
