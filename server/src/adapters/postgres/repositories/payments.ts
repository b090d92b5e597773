import { paymentStatuses, type Payment } from '../../../domain/payment.js';
import type { PageRequest } from '../../../domain/page.js';
import type { PaymentFilter, PaymentRepository } from '../../../ports/repositories.js';
import { definedOnly, newestAcross, pageOf, sendDirect, whereCreatedWithin, insertNow, type Insert, type Db } from './query.js';

interface PaymentRow {
  id: string;
  merchant_id: string;
  qr_code_id: string | null;
  till_id: string | null;
  status: Payment['status'];
  amount: number;
  currency: 'THB';
  reference: string | null;
  description: string | null;
  client_name: string | null;
  client_bank_name: string | null;
  client_bank_account: string | null;
  metadata: Payment['metadata'];
  refunded_amount: number;
  card_brand: 'visa' | 'mastercard' | null;
  card_last4: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  expires_at: Date | null;
}

const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  merchantId: row.merchant_id,
  qrCodeId: row.qr_code_id,
  tillId: row.till_id,
  status: row.status,
  amount: row.amount,
  currency: row.currency,
  reference: row.reference,
  description: row.description,
  clientName: row.client_name,
  clientBankName: row.client_bank_name,
  clientBankAccount: row.client_bank_account,
  metadata: row.metadata,
  refundedAmount: row.refunded_amount,
  card: row.card_brand && row.card_last4 ? { brand: row.card_brand, last4: row.card_last4 } : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
  expiresAt: row.expires_at,
});

const toRow = (p: Payment): PaymentRow => ({
  id: p.id,
  merchant_id: p.merchantId,
  qr_code_id: p.qrCodeId,
  till_id: p.tillId,
  status: p.status,
  amount: p.amount,
  currency: p.currency,
  reference: p.reference,
  description: p.description,
  client_name: p.clientName,
  client_bank_name: p.clientBankName,
  client_bank_account: p.clientBankAccount,
  // Stored as JSON text so keys such as __proto__ stay plain data.
  metadata: JSON.stringify(p.metadata) as unknown as Payment['metadata'],
  refunded_amount: p.refundedAmount,
  card_brand: p.card?.brand ?? null,
  card_last4: p.card?.last4 ?? null,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  completed_at: p.completedAt,
  expires_at: p.expiresAt,
});

const DAY_MS = 86_400_000;
const BY_ID = 'SELECT * FROM payments WHERE id = $1 AND merchant_id = $2';
const BY_ID_LOCKED = `${BY_ID} FOR UPDATE`;
const newestFirst = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/**
 * A merchant's payments that match a filter. Without a status or a till, every status is named: one index,
 * payments_by_merchant_status, then serves a date range too (a range scan per status), as a list's count.
 */
function matching(db: Db, merchantId: string, filter: PaymentFilter) {
  const query = db('payments').where(definedOnly({ merchant_id: merchantId, status: filter.status, till_id: filter.tillId }));
  if (!filter.status && !filter.tillId) void query.whereIn('status', paymentStatuses);
  return whereCreatedWithin(query, filter);
}

/**
 * The ids of a page of payments, newest first. A status or a till picks its index (payments_by_merchant_status,
 * payments_by_till); without either, every status's part of payments_by_merchant_status is merged (migration
 * 0028_one_list_index_each).
 */
function newestIds(db: Db, merchantId: string, filter: PaymentFilter, page: PageRequest, limit: number) {
  if (filter.status || filter.tillId)
    return matching(db, merchantId, filter)
      .select('id')
      .orderBy([...newestFirst])
      .limit(limit)
      .offset(page.offset);
  const groups = paymentStatuses.map((status) => ({ merchant_id: merchantId, status }));
  return newestAcross(db, 'payments', groups, filter, page, limit);
}

/** A payment's row, through `insert` (also how a QR code's held writes add it: ../unit-of-work.ts). */
export const insertPayment = (insert: Insert, payment: Payment): Promise<void> => insert('payments', toRow(payment));

export const paymentRepository = (db: Db, insert: Insert = insertNow(db)): PaymentRepository => ({
  async insert(payment) {
    await insertPayment(insert, payment);
  },
  async update(payment) {
    const { id, merchant_id, created_at, ...changes } = toRow(payment);
    void created_at;
    await db('payments').where({ id, merchant_id }).update(changes);
  },
  async findById(merchantId, id, options = {}) {
    // Payment retrieval's one query, sent without knex's pipeline on every request.
    const rows = options.lock
      ? await sendDirect<PaymentRow>(db, BY_ID_LOCKED, [id, merchantId], 'payment_by_id_locked')
      : await sendDirect<PaymentRow>(db, BY_ID, [id, merchantId], 'payment_by_id');
    return rows.length > 0 ? toPayment(rows[0]!) : null;
  },
  async list(merchantId, filter, page) {
    return pageOf(db, 'payments', matching(db, merchantId, filter), page, toPayment, { ids: newestIds(db, merchantId, filter, page, page.limit) });
  },
  async listNewest(merchantId, filter, page) {
    // One row more than the page tells whether a next page exists; the ids come from the index first, as in pageOf.
    const rows = await db<PaymentRow>('payments')
      .whereIn('id', newestIds(db, merchantId, filter, page, page.limit + 1))
      .orderBy([...newestFirst]);
    return { items: rows.slice(0, page.limit).map(toPayment), more: rows.length > page.limit };
  },
  async findByReference(merchantId, reference, page) {
    const rows = await db<PaymentRow>('payments')
      .where({ merchant_id: merchantId, reference })
      .orderBy([...newestFirst])
      .limit(page.limit + 1)
      .offset(page.offset);
    return { items: rows.slice(0, page.limit).map(toPayment), more: rows.length > page.limit };
  },
  async succeededByDay(merchantId, range) {
    // Bangkok is UTC+7 all year: its day of an instant is the UTC date seven hours later.
    const rows = await db('payments')
      .where({ merchant_id: merchantId })
      .whereIn('status', ['succeeded', 'refunded'])
      .whereBetween('completed_at', [range.startDate, range.endDate])
      // A payment succeeds within a day or so of its creation (expiry at most 1440 minutes): this bound lets the index serve.
      .where('created_at', '>=', new Date(range.startDate.getTime() - 2 * DAY_MS))
      .groupByRaw('1')
      .orderByRaw('1')
      .select<{ date: string; count: string | number; amount: string | number }[]>(
        db.raw(`to_char((completed_at AT TIME ZONE 'UTC') + interval '7 hours', 'YYYY-MM-DD') AS date`),
        db.raw('count(*) AS count'),
        db.raw('sum(amount) AS amount'),
      );
    return rows.map((r) => ({ date: r.date, count: Number(r.count), amount: Number(r.amount) }));
  },
  async lockOverdueTestPayments(now, limit) {
    const rows = await db<PaymentRow>('payments as p')
      .join('merchants as m', 'm.id', 'p.merchant_id')
      .where({ 'p.status': 'pending', 'm.mode': 'test' })
      .where('p.expires_at', '<=', now)
      .orderBy('p.expires_at')
      .limit(limit)
      .select('p.*')
      .forUpdate('p')
      .skipLocked();
    return rows.map(toPayment);
  },
  async overdueLivePayments(expiredBy, limit) {
    const rows = await db('payments as p')
      .join('merchants as m', 'm.id', 'p.merchant_id')
      .join('qr_codes as q', 'q.id', 'p.qr_code_id')
      .where({ 'p.status': 'pending', 'm.mode': 'live' })
      .where('p.expires_at', '<=', expiredBy)
      .orderBy('p.expires_at')
      .limit(limit)
      .select<
        { id: string; merchant_id: string; bank_reference: string; created_at: Date; expires_at: Date }[]
      >('p.id', 'p.merchant_id', 'q.bank_reference', 'p.created_at', 'p.expires_at');
    return rows.map((r) => ({
      paymentId: r.id,
      merchantId: r.merchant_id,
      ref1: r.bank_reference,
      createdAt: new Date(r.created_at),
      expiresAt: new Date(r.expires_at),
    }));
  },
});
