import type { ReturnStatus, UnmatchedBankTransaction, UnmatchedReason, UnmatchedResolution } from '../../../domain/bank-transaction.js';
import type { BankCheck, BankCheckQueue, BankReturnQueue, BankTransactionRepository } from '../../../ports/repositories.js';
import type { Knex } from 'knex';
import { insertNow, type Db, type Insert } from './query.js';

interface UnmatchedRow {
  id: string;
  bank_transaction_id: string;
  unmatched_reason: UnmatchedReason;
  ref1: string;
  amount: string;
  payment_id: string | null;
  paid_at: Date;
  recorded_at: Date;
  payer_name: string | null;
  payer_account: string | null;
  sending_bank_code: string | null;
  resolution: 'returned' | 'resolved' | null;
  resolution_note: string | null;
  resolved_at: Date | null;
  return_amount: string | number | null;
  return_bank_code: string | null;
  return_account_number: string | null;
  return_account_name: string | null;
  return_status: ReturnStatus | null;
  return_exported_at: Date | null;
}

interface SettlingRow {
  bank_transaction_id: string;
  amount: string;
  paid_at: Date;
  ref1: string;
  ref2: string | null;
  biller_id: string;
  payer_name: string | null;
  payer_account: string | null;
  sending_bank_code: string | null;
}

function resolutionOf(r: UnmatchedRow): UnmatchedResolution | null {
  if (r.resolution === 'resolved') return { kind: 'resolved', note: r.resolution_note ?? '', at: r.resolved_at! };
  if (r.resolution !== 'returned') return null;
  return {
    kind: 'returned',
    destination: { bankCode: r.return_bank_code!, accountNumber: r.return_account_number!, accountName: r.return_account_name ?? '' },
    amount: Number(r.return_amount),
    status: r.return_status!,
    exported: r.return_exported_at !== null,
    at: r.resolved_at!,
  };
}

const toUnmatched = (r: UnmatchedRow): UnmatchedBankTransaction => ({
  id: r.id,
  transactionId: r.bank_transaction_id,
  reason: r.unmatched_reason,
  ref1: r.ref1,
  amount: r.amount,
  paymentId: r.payment_id,
  paidAt: r.paid_at,
  recordedAt: r.recorded_at,
  payerName: r.payer_name,
  payerAccount: r.payer_account,
  sendingBankCode: r.sending_bank_code,
  resolution: resolutionOf(r),
});

/** Open: never handled, or its return failed (see `isOpen`). */
const whereOpen = (query: Knex.QueryBuilder, openOnly: boolean | undefined) =>
  openOnly ? query.whereRaw("(resolution IS NULL OR (resolution = 'returned' AND return_status = 'failed'))") : query;

const resolutionColumns = (r: UnmatchedResolution) =>
  r.kind === 'resolved'
    ? { resolution: 'resolved', resolution_note: r.note, resolved_at: r.at }
    : {
        resolution: 'returned',
        resolved_at: r.at,
        return_amount: r.amount,
        return_bank_code: r.destination.bankCode,
        return_account_number: r.destination.accountNumber,
        return_account_name: r.destination.accountName,
        return_status: r.status,
      };

export const bankTransactionRepository = (db: Db): BankTransactionRepository => ({
  async livePaymentOf(ref1) {
    const row = await db('qr_codes as q')
      .join('merchants as m', 'm.id', 'q.merchant_id')
      .where({ 'q.bank_reference': ref1, 'm.mode': 'live' })
      .whereNotNull('q.payment_id') // a till's static QR: the tills' repository knows it
      .first<{ merchant_id: string; payment_id: string } | undefined>('q.merchant_id', 'q.payment_id');
    return row ? { merchantId: row.merchant_id, paymentId: row.payment_id } : null;
  },
  async record({ id, transaction: t, paymentId, merchantId, unmatchedReason, recordedAt }) {
    const inserted = await db('bank_transactions')
      .insert({
        id,
        bank_transaction_id: t.transactionId,
        ref1: t.ref1,
        ref2: t.ref2,
        amount: String(t.amount),
        biller_id: t.billerId,
        payer_name: t.payerName,
        payer_account: t.payerAccount,
        sending_bank_code: t.sendingBankCode,
        paid_at: t.paidAt,
        payment_id: paymentId,
        merchant_id: merchantId,
        unmatched_reason: unmatchedReason,
        recorded_at: recordedAt,
      })
      .onConflict('bank_transaction_id')
      .ignore()
      .returning('id');
    return inserted.length > 0;
  },
  async settlingTransactionOf(paymentId) {
    const row = await db('bank_transactions').where({ payment_id: paymentId }).whereNull('unmatched_reason').first<SettlingRow | undefined>();
    return row
      ? {
          transactionId: row.bank_transaction_id,
          amount: row.amount,
          paidAt: row.paid_at,
          ref1: row.ref1,
          ref2: row.ref2,
          billerId: row.biller_id,
          payerName: row.payer_name,
          payerAccount: row.payer_account,
          sendingBankCode: row.sending_bank_code,
          reversed: false, // a reversed transaction is never applied
        }
      : null;
  },
  async paymentIdOf(bankTransactionId) {
    const row = await db('bank_transactions').where({ bank_transaction_id: bankTransactionId }).first<{ payment_id: string | null } | undefined>('payment_id');
    return row?.payment_id ?? null;
  },
  async listUnmatched(limit, { openOnly } = {}) {
    const query = db<UnmatchedRow>('bank_transactions').whereNotNull('unmatched_reason');
    const rows: UnmatchedRow[] = await whereOpen(query, openOnly)
      .orderBy([
        { column: 'recorded_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
    return rows.map(toUnmatched);
  },
  async countUnmatched({ openOnly } = {}) {
    const [row] = await whereOpen(db('bank_transactions').whereNotNull('unmatched_reason'), openOnly).count<{ count: string | number }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  },
  async unmatchedOfPayment(paymentId) {
    const rows = await db<UnmatchedRow>('bank_transactions')
      .where({ payment_id: paymentId })
      .whereNotNull('unmatched_reason')
      .orderBy([{ column: 'recorded_at' }, { column: 'id' }]);
    return rows.map(toUnmatched);
  },
  async lockUnmatched(id) {
    const row = await db<UnmatchedRow>('bank_transactions').where({ id }).whereNotNull('unmatched_reason').forUpdate().first();
    return row ? toUnmatched(row) : null;
  },
  async setResolution(id, resolution) {
    await db('bank_transactions').where({ id }).update(resolutionColumns(resolution));
  },
});

/** A live payment to ask the bank about, through `insert` (also how a QR code's held writes add it: ../unit-of-work.ts). */
export const watchPayment = (insert: Insert, { paymentId, ref1, createdAt }: Pick<BankCheck, 'paymentId' | 'ref1' | 'createdAt'>): Promise<void> =>
  insert('bank_checks', { payment_id: paymentId, bank_reference: ref1, created_at: createdAt, due_at: createdAt });

export const bankCheckQueue = (db: Db, insert: Insert = insertNow(db)): BankCheckQueue => ({
  async watch(check) {
    await watchPayment(insert, check);
  },
  async claimDue(now, leaseMs, expiredSince, limit) {
    // Checks whose payment settled, failed or expired over a day ago are done: they go, so rounds stay small.
    await db.raw(
      `DELETE FROM bank_checks WHERE payment_id IN (
         SELECT c.payment_id FROM bank_checks c JOIN payments p ON p.id = c.payment_id
         WHERE c.due_at <= ? AND NOT (p.status = 'pending' OR (p.status = 'expired' AND p.updated_at >= ?))
         LIMIT 1000 FOR UPDATE OF c SKIP LOCKED)`,
      [now, expiredSince],
    );
    // A lease, as deliveries take theirs: each due check goes to one instance, which returns to it after the lease.
    const { rows } = await db.raw<{ rows: { payment_id: string; bank_reference: string; created_at: Date; expires_at: Date | null }[] }>(
      `UPDATE bank_checks c SET due_at = ?
       FROM (SELECT c2.payment_id, p.expires_at FROM bank_checks c2 JOIN payments p ON p.id = c2.payment_id
             WHERE c2.due_at <= ? AND (p.status = 'pending' OR (p.status = 'expired' AND p.updated_at >= ?))
             ORDER BY c2.due_at LIMIT ? FOR UPDATE OF c2 SKIP LOCKED) due
       WHERE c.payment_id = due.payment_id
       RETURNING c.payment_id, c.bank_reference, c.created_at, due.expires_at`,
      [new Date(now.getTime() + leaseMs), now, expiredSince, limit],
    );
    return rows.map(
      (r): BankCheck => ({
        paymentId: r.payment_id,
        ref1: r.bank_reference,
        createdAt: new Date(r.created_at),
        expiresAt: r.expires_at && new Date(r.expires_at),
      }),
    );
  },
});

/** Returns of unmatched money on the bulk-transfer rail: the return columns of their bank transaction. */
export const bankReturnQueue = (db: Db): BankReturnQueue => ({
  async lockUnexported(limit) {
    const rows = await db<UnmatchedRow>('bank_transactions')
      .where({ return_status: 'pending' })
      .whereNull('return_exported_at')
      .orderBy('resolved_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return rows.map(toUnmatched);
  },
  async markExported(ids, at) {
    await db('bank_transactions')
      .whereIn('id', [...ids])
      .update({ return_exported_at: at });
  },
});
