import type { LedgerTotals } from '../../../domain/statement.js';
import type { Knex } from 'knex';
import type { ReportRepository, SettlementLine } from '../../../ports/reports.js';
import { toEntry, type EntryRow } from './balances.js';
import { definedOnly, whereCreatedWithin, type Db } from './query.js';

interface TotalsRow {
  type: LedgerTotals['type'];
  count: number | string;
  amount: number | string;
  fee: number | string;
  fee_vat: number | string;
  net: number | string;
}

export const reportRepository = (db: Db): ReportRepository => ({
  async balanceBefore(merchantId, before) {
    const rows = await db('balance_transactions')
      .where('merchant_id', merchantId)
      .where('created_at', '<', before)
      .sum<{ net: string | null }[]>({ net: 'net' });
    return Number(rows[0]?.net ?? 0);
  },
  async totalsBetween(merchantId, from, to) {
    const rows: TotalsRow[] = await db('balance_transactions')
      .where('merchant_id', merchantId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy('type')
      .select('type', db.raw('count(*) AS count'), db.raw('sum(amount) AS amount'), db.raw('sum(fee) AS fee'))
      .select(db.raw('sum(fee_vat) AS fee_vat'), db.raw('sum(net) AS net'));
    return rows.map((r) => ({
      type: r.type,
      count: Number(r.count),
      amount: Number(r.amount),
      fee: Number(r.fee),
      feeVat: Number(r.fee_vat),
      net: Number(r.net),
    }));
  },
  linesBetween: (merchantId, from, to) =>
    linesWithReference(db, db('balance_transactions as t').where('t.merchant_id', merchantId).where('t.created_at', '>=', from).where('t.created_at', '<', to)),
  async countMatching(merchantId, filter, atMost) {
    const matching = whereCreatedWithin(db('balance_transactions').where(definedOnly({ merchant_id: merchantId, type: filter.type })), filter);
    const rows = await db.count<{ n: string | number }[]>({ n: '*' }).from(matching.select(db.raw('1')).limit(atMost).as('m'));
    return Number(rows[0]?.n ?? 0);
  },
  linesMatching(merchantId, filter, after, limit) {
    const query = db('balance_transactions as t').where('t.merchant_id', merchantId);
    if (filter.type) query.where('t.type', filter.type);
    if (filter.startDate) query.where('t.created_at', '>=', filter.startDate);
    if (filter.endDate) query.where('t.created_at', '<=', filter.endDate);
    if (after) query.whereRaw('(t.created_at, t.id COLLATE "C") > (?, ? COLLATE "C")', [after.createdAt, after.id]);
    return linesWithReference(db, query.limit(limit));
  },
  async keptStatementPdf(merchantId, month) {
    const row = await db('statement_pdfs').where({ merchant_id: merchantId, month }).first<{ pdf: Uint8Array } | undefined>('pdf');
    return row ? new Uint8Array(row.pdf) : null;
  },
  async keepStatementPdf(merchantId, month, pdf, at) {
    await db('statement_pdfs')
      .insert({ merchant_id: merchantId, month, pdf: Buffer.from(pdf), created_at: at })
      .onConflict(['merchant_id', 'month'])
      .ignore();
  },
});

/** The entries a query selects from `balance_transactions t`, oldest first, each with the reference of its payment. */
async function linesWithReference(db: Db, entries: Knex.QueryBuilder): Promise<SettlementLine[]> {
  // A payment's entry names the payment; a refund's (or its reversal's) names the refund, whose payment has the reference.
  const rows: (EntryRow & { reference: string | null })[] = await entries
    .leftJoin('payments as p', (on) => on.on('p.id', 't.source_id').andOnVal('t.type', 'payment'))
    .leftJoin('refunds as r', (on) => on.on('r.id', 't.source_id').andOnIn('t.type', ['refund', 'refund_reversal']))
    .leftJoin('payments as rp', 'rp.id', 'r.payment_id')
    .select('t.*', db.raw('coalesce(p.reference, rp.reference) AS reference'))
    .orderBy('t.created_at')
    .orderByRaw('t.id COLLATE "C"');
  return rows.map((row) => ({ ...toEntry(row), reference: row.reference }));
}
