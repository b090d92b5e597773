import type { Knex } from 'knex';
import type { DateRange, PageRequest } from '../../../domain/page.js';
import { paymentStatuses, type Payment } from '../../../domain/payment.js';
import { paymentTransaction, paymentTransactionState, transactionStatuses, type Transaction } from '../../../domain/transaction.js';
import type { TransactionFilter, TransactionRepository } from '../../../ports/repositories.js';
import { definedOnly, whereCreatedWithin, insertNow, type Insert, type Db } from './query.js';

/** A refund's transaction: the only rows of `transactions` (a payment's own is read from the payment, migration 0030). */
interface TransactionRow {
  id: string;
  merchant_id: string;
  payment_id: string;
  refund_id: string;
  type: 'refund';
  status: Transaction['status'];
  amount: number;
  currency: 'THB';
  created_at: Date;
}

/** What a payment's transaction is made of; `transaction_id` only on a payment older than migration 0030. */
type PaymentTransactionRow = Pick<Payment, 'status' | 'amount'> & {
  id: string;
  merchant_id: string;
  currency: 'THB';
  created_at: Date;
  transaction_id: string | null;
};

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

const fromPayment = (row: PaymentTransactionRow): Transaction =>
  paymentTransaction(
    { id: row.id, merchantId: row.merchant_id, status: row.status, amount: row.amount, currency: row.currency, createdAt: row.created_at },
    row.transaction_id,
  );

/**
 * Where a refund's transaction sorts among ties with payments' (the list's merge key, `sort_key`): its id with the
 * payment prefix, so a payment's transaction sorts by its payment's id as payments_by_merchant_status holds it, and
 * the payments' 90 % of a history are read index-only with no sort. Ties between two transactions' ids and two such
 * keys fall the same way (the same random parts behind prefixes of one length): `paymentTransactionId` is `txn_` and
 * the payment id's random part. A payment's transaction made before migration 0030 keeps its stored id, and sorts
 * among ties by its payment's.
 */
const REFUND_SORT_KEY = "'pay_' || substr(id, strpos(id, '_') + 1)";

/** Where a filter's transactions are: the payment statuses whose transaction it matches (failed and expired both have a failed one), and the refund statuses. */
interface Sources {
  paymentStatuses: Payment['status'][];
  refundStatuses: Transaction['status'][];
}
const sourcesOf = (filter: TransactionFilter): Sources => ({
  paymentStatuses: paymentStatuses.filter((status) => {
    const transaction = paymentTransactionState({ status });
    return (!filter.type || filter.type === transaction.type) && (!filter.status || filter.status === transaction.status);
  }),
  refundStatuses: filter.type && filter.type !== 'refund' ? [] : transactionStatuses.filter((status) => !filter.status || filter.status === status),
});

/** A refund's transaction, at once or held with the rest of its unit of work. */
export const insertTransaction = (insert: Insert, t: Transaction & { refundId: string }): Promise<void> =>
  insert('transactions', {
    id: t.id,
    merchant_id: t.merchantId,
    payment_id: t.paymentId,
    refund_id: t.refundId,
    type: 'refund',
    status: t.status,
    amount: t.amount,
    currency: t.currency,
    created_at: t.createdAt,
  } satisfies TransactionRow);

/**
 * One page of a merchant's transactions, newest first, ties by id descending, from two sources: its payments (each
 * payment status read newest first from payments_by_merchant_status) and its refunds' rows (each status from
 * transactions_by_merchant_type_status). Every group reads at most offset + limit index entries and PostgreSQL merges
 * them (a Merge Append), so a page costs the same at a million rows as at a hundred; then the page's rows are read by key.
 */
function newestOfPage(db: Db, merchantId: string, filter: TransactionFilter, sources: Sources, page: PageRequest) {
  const newest = (query: Knex.QueryBuilder, sortKey: string) =>
    whereCreatedWithin(query, filter)
      .orderByRaw(`created_at DESC, ${sortKey} DESC`)
      .limit(page.offset + page.limit);
  const payments = sources.paymentStatuses.map((status) =>
    newest(
      db('payments')
        .where({ merchant_id: merchantId, status })
        .select(db.raw('id AS sort_key'), 'created_at', db.raw('id AS payment_id'), db.raw('NULL AS refund_transaction_id')),
      'id',
    ),
  );
  const refunds = sources.refundStatuses.map((status) =>
    newest(
      db('transactions')
        .where({ merchant_id: merchantId, type: 'refund', status })
        .select(db.raw(`${REFUND_SORT_KEY} AS sort_key`), 'created_at', 'payment_id', db.raw('id AS refund_transaction_id')),
      REFUND_SORT_KEY,
    ),
  );
  return db
    .select<{ payment_id: string; refund_transaction_id: string | null }[]>('payment_id', 'refund_transaction_id')
    .from(
      db
        .queryBuilder()
        .unionAll([...payments, ...refunds], true)
        .as('newest'),
    )
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'sort_key', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** How many transactions match: the maintained counts without a date range (migration 0012), else each source's range counted. */
async function totalOf(db: Db, merchantId: string, filter: TransactionFilter & DateRange, sources: Sources): Promise<number> {
  if (!filter.startDate && !filter.endDate) {
    const matching = definedOnly({ merchant_id: merchantId, status: filter.status, type: filter.type });
    const rows = await db('transaction_totals').where(matching).sum<{ n: number | string | null }[]>({ n: 'n' });
    return Number(rows[0]?.n ?? 0);
  }
  const counted = (query: Knex.QueryBuilder) =>
    whereCreatedWithin(query, filter)
      .count<{ count: number | string }[]>({ count: '*' })
      .then((rows) => Number(rows[0]?.count ?? 0));
  const [payments, refunds] = await Promise.all([
    counted(db('payments').where({ merchant_id: merchantId }).whereIn('status', sources.paymentStatuses)),
    counted(db('transactions').where({ merchant_id: merchantId, type: 'refund' }).whereIn('status', sources.refundStatuses)),
  ]);
  return payments + refunds;
}

export const transactionRepository = (db: Db, insert: Insert = insertNow(db)): TransactionRepository => ({
  async insert(t) {
    await insertTransaction(insert, t);
  },
  async updateRefundTransaction(refundId, status) {
    await db('transactions').where({ refund_id: refundId }).update({ status });
  },
  async list(merchantId, filter, page) {
    // A type and a status no transaction has together (`failed` and `pending`, say): nothing to read.
    const sources = sourcesOf(filter);
    if (sources.paymentStatuses.length === 0 && sources.refundStatuses.length === 0) return { items: [], total: 0 };
    const [entries, total] = await Promise.all([newestOfPage(db, merchantId, filter, sources, page), totalOf(db, merchantId, filter, sources)]);
    const paymentIds = entries.filter((entry) => !entry.refund_transaction_id).map((entry) => entry.payment_id);
    const refundIds = entries.flatMap((entry) => entry.refund_transaction_id ?? []);
    const [payments, refunds] = await Promise.all([
      paymentIds.length === 0
        ? []
        : db<PaymentTransactionRow>('payments')
            .whereIn('id', paymentIds)
            .select('id', 'merchant_id', 'status', 'amount', 'currency', 'created_at', 'transaction_id'),
      refundIds.length === 0 ? [] : db<TransactionRow>('transactions').whereIn('id', refundIds),
    ]);
    const ofPayment = new Map(payments.map((row) => [row.id, fromPayment(row)]));
    const ofRefund = new Map(refunds.map((row) => [row.id, toTransaction(row)]));
    const items = entries.map((entry) => (entry.refund_transaction_id ? ofRefund.get(entry.refund_transaction_id)! : ofPayment.get(entry.payment_id)!));
    return { items, total };
  },
});
