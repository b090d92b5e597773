import type { LedgerEntry } from '../../../domain/balance.js';
import type { BalanceRepository } from '../../../ports/ledger.js';
import { definedOnly, pageOf, whereCreatedWithin, type Db } from './query.js';

interface EntryRow {
  id: string;
  merchant_id: string;
  type: LedgerEntry['type'];
  amount: number | string;
  fee: number | string;
  fee_vat: number | string;
  net: number | string;
  currency: 'THB';
  source_id: string;
  withdrawal_id: string | null;
  available_on: Date;
  settled: boolean;
  created_at: Date;
}

const toEntry = (row: EntryRow): LedgerEntry => ({
  id: row.id,
  merchantId: row.merchant_id,
  type: row.type,
  amount: Number(row.amount),
  fee: Number(row.fee),
  feeVat: Number(row.fee_vat),
  net: Number(row.net),
  currency: row.currency,
  sourceId: row.source_id,
  withdrawalId: row.withdrawal_id,
  availableOn: row.available_on,
  createdAt: row.created_at,
});

const totalsOf = (row: { available: number | string; pending: number | string } | undefined) => ({
  available: Number(row?.available ?? 0),
  pending: Number(row?.pending ?? 0),
});

export const balanceRepository = (db: Db): BalanceRepository => ({
  async lock(merchantId) {
    // One statement makes the row if needed and locks it (DO UPDATE locks the row it meets) until the transaction ends.
    const { rows } = await db.raw(
      `INSERT INTO balances (merchant_id) VALUES (?)
       ON CONFLICT (merchant_id) DO UPDATE SET merchant_id = EXCLUDED.merchant_id RETURNING available, pending`,
      [merchantId],
    );
    return totalsOf(rows[0]);
  },
  async read(merchantId, now) {
    // One statement, so the totals and the matured entries come from the same snapshot.
    const { rows } = await db.raw(
      `SELECT b.available, b.pending,
         (SELECT coalesce(sum(net), 0) FROM balance_transactions WHERE merchant_id = ? AND NOT settled AND available_on <= ?) AS matured
       FROM (SELECT 1) one LEFT JOIN balances b ON b.merchant_id = ?`,
      [merchantId, now, merchantId],
    );
    return { totals: totalsOf(rows[0]), maturedNet: Number(rows[0]?.matured ?? 0) };
  },
  async adjust(merchantId, delta) {
    const changed = await db('balances')
      .where({ merchant_id: merchantId })
      .update({ available: db.raw('available + ?', [delta.available]), pending: db.raw('pending + ?', [delta.pending]) });
    // No row yet: the merchant's first credit (never a debit, which locks the row first) makes it.
    if (changed === 0) {
      await db.raw(
        `INSERT INTO balances (merchant_id, available, pending) VALUES (?, ?, ?)
         ON CONFLICT (merchant_id) DO UPDATE SET available = balances.available + EXCLUDED.available, pending = balances.pending + EXCLUDED.pending`,
        [merchantId, delta.available, delta.pending],
      );
    }
  },
  async append(e, settled) {
    const { rows } = await db.raw(
      `INSERT INTO balance_transactions (id, merchant_id, type, amount, fee, fee_vat, net, currency, source_id, withdrawal_id, available_on, settled, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, type) DO NOTHING RETURNING id`,
      [e.id, e.merchantId, e.type, e.amount, e.fee, e.feeVat, e.net, e.currency, e.sourceId, e.withdrawalId, e.availableOn, settled, e.createdAt],
    );
    return rows.length > 0;
  },
  async merchantsWithMatured(now, limit) {
    const rows = await db('balance_transactions').distinct('merchant_id').where('settled', false).where('available_on', '<=', now).limit(limit);
    return rows.map((row: { merchant_id: string }) => row.merchant_id);
  },
  async settleMatured(merchantId, now) {
    const { rows } = await db.raw(
      `WITH matured AS (
         UPDATE balance_transactions SET settled = true
         WHERE merchant_id = ? AND NOT settled AND available_on <= ? RETURNING net)
       SELECT coalesce(sum(net), 0) AS net FROM matured`,
      [merchantId, now],
    );
    return Number(rows[0]?.net ?? 0);
  },
  async linkToWithdrawal(merchantId, withdrawalId) {
    await db('balance_transactions').where({ merchant_id: merchantId, settled: true }).whereNull('withdrawal_id').update({ withdrawal_id: withdrawalId });
  },
  async unlinkWithdrawal(withdrawalId) {
    // The withdrawal's own entries stay with it; what it would have paid out waits for the next one.
    await db('balance_transactions').where({ withdrawal_id: withdrawalId }).whereNot({ source_id: withdrawalId }).update({ withdrawal_id: null });
  },
  async list(merchantId, filter, page) {
    const matching = definedOnly({ merchant_id: merchantId, type: filter.type });
    const query = whereCreatedWithin(db('balance_transactions').where(matching), filter);
    // Without a date range the total is the sum of the maintained counts, not a count of every entry.
    const total =
      filter.startDate || filter.endDate
        ? undefined
        : db('balance_transaction_counts')
            .where(matching)
            .sum<{ n: number | string | null }[]>({ n: 'n' })
            .then((rows) => Number(rows[0]?.n ?? 0));
    return pageOf(db, 'balance_transactions', query, page, toEntry, total);
  },
});
