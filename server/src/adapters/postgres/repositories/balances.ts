import type { LedgerEntry, PendingCredit } from '../../../domain/balance.js';
import type { BalanceRepository } from '../../../ports/ledger.js';
import { definedOnly, pageOf, whereCreatedWithin, type Db } from './query.js';

export interface EntryRow {
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

export const toEntry = (row: EntryRow): LedgerEntry => ({
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

/** What draws left of a credit's net (draws are few: only refunds that reached into pending make them). */
const leftOf = (credit: string) => `${credit}.net - coalesce((SELECT sum(d.amount) FROM balance_draws d WHERE d.credit_id = ${credit}.id), 0)`;

interface CreditRow {
  id: string;
  available_on: Date;
  remaining: number | string;
}
const toCredit = (row: CreditRow): PendingCredit => ({ id: row.id, availableOn: row.available_on, remaining: Number(row.remaining) });
const CREDIT_PAGE = 100;

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
         (SELECT coalesce(sum(net), 0) FROM balance_transactions WHERE merchant_id = ? AND NOT settled AND available_on <= ?)
         - (SELECT coalesce(sum(d.amount), 0) FROM balance_transactions c JOIN balance_draws d ON d.credit_id = c.id
            WHERE c.merchant_id = ? AND NOT c.settled AND c.available_on <= ?) AS matured
       FROM (SELECT 1) one LEFT JOIN balances b ON b.merchant_id = ?`,
      [merchantId, now, merchantId, now, merchantId],
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
         WHERE merchant_id = ? AND NOT settled AND available_on <= ? RETURNING id, net)
       SELECT (SELECT coalesce(sum(net), 0) FROM matured)
         - (SELECT coalesce(sum(d.amount), 0) FROM matured m JOIN balance_draws d ON d.credit_id = m.id) AS net`,
      [merchantId, now],
    );
    return Number(rows[0]?.net ?? 0);
  },
  async pendingCreditOf(paymentId) {
    const { rows } = await db.raw(
      `SELECT c.id, c.available_on, ${leftOf('c')} AS remaining FROM balance_transactions c
       WHERE c.source_id = ? AND c.type = 'payment' AND NOT c.settled`,
      [paymentId],
    );
    return rows[0] ? toCredit(rows[0]) : null;
  },
  async pendingCreditsLatestFirst(merchantId, atLeast, exceptCreditId) {
    // Pages down the partial index of unsettled entries from the latest, so a refund reads only the credits it takes from.
    const credits: PendingCredit[] = [];
    let covered = 0;
    let after: PendingCredit | undefined;
    while (covered < atLeast) {
      const { rows } = await db.raw(
        `SELECT c.id, c.available_on, ${leftOf('c')} AS remaining FROM balance_transactions c
         WHERE c.merchant_id = ? AND NOT c.settled AND c.type = 'payment' AND c.id <> ?
           ${after ? 'AND (c.available_on, c.id COLLATE "C") < (?, ?)' : ''}
         ORDER BY c.available_on DESC, c.id COLLATE "C" DESC LIMIT ${CREDIT_PAGE}`,
        [merchantId, exceptCreditId ?? '', ...(after ? [after.availableOn, after.id] : [])],
      );
      const page = (rows as CreditRow[]).map(toCredit);
      for (const credit of page.filter((c) => c.remaining > 0)) {
        if (covered >= atLeast) break;
        credits.push(credit);
        covered += credit.remaining;
      }
      if (page.length < CREDIT_PAGE) break;
      after = page[page.length - 1];
    }
    return credits;
  },
  async recordDraws(entryId, draws) {
    if (draws.length === 0) return;
    await db('balance_draws').insert(draws.map((d) => ({ entry_id: entryId, credit_id: d.creditId, amount: d.amount })));
  },
  async drawsOfRefund(refundId) {
    const { rows } = await db.raw(
      `SELECT d.credit_id, d.amount, NOT c.settled AS still_pending FROM balance_transactions e
         JOIN balance_draws d ON d.entry_id = e.id JOIN balance_transactions c ON c.id = d.credit_id
       WHERE e.source_id = ? AND e.type = 'refund'`,
      [refundId],
    );
    return (rows as { credit_id: string; amount: number | string; still_pending: boolean }[]).map((r) => ({
      creditId: r.credit_id,
      amount: Number(r.amount),
      stillPending: r.still_pending,
    }));
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
    return pageOf(db, 'balance_transactions', query, page, toEntry, { total });
  },
});
