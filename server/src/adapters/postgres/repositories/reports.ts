import type { LedgerTotals } from '../../../domain/statement.js';
import type { ReportRepository } from '../../../ports/reports.js';
import { toEntry, type EntryRow } from './balances.js';
import type { Db } from './query.js';

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
  async linesBetween(merchantId, from, to) {
    // A payment's entry names the payment; a refund's (or its reversal's) names the refund, whose payment has the reference.
    const { rows } = await db.raw(
      `SELECT t.*, coalesce(p.reference, rp.reference) AS reference
       FROM balance_transactions t
         LEFT JOIN payments p ON p.id = t.source_id AND t.type = 'payment'
         LEFT JOIN refunds r ON r.id = t.source_id AND t.type IN ('refund', 'refund_reversal')
         LEFT JOIN payments rp ON rp.id = r.payment_id
       WHERE t.merchant_id = ? AND t.created_at >= ? AND t.created_at < ?
       ORDER BY t.created_at, t.id COLLATE "C"`,
      [merchantId, from, to],
    );
    return (rows as (EntryRow & { reference: string | null })[]).map((row) => ({ ...toEntry(row), reference: row.reference }));
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
