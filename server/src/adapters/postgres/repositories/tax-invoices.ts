import type { TaxInvoice } from '../../../domain/tax-invoice.js';
import type { TaxInvoiceRepository } from '../../../ports/reports.js';
import type { Db } from './query.js';

interface InvoiceRow {
  id: string;
  merchant_id: string;
  serial: string;
  specimen: boolean;
  month: string;
  issue_date: string;
  seller_name: string;
  seller_address: string;
  seller_tax_id: string;
  seller_branch: string;
  buyer_name: string;
  buyer_address: string;
  buyer_tax_id: string;
  buyer_branch: string;
  fees: number | string;
  vat: number | string;
  total: number | string;
  currency: 'THB';
  created_at: Date;
}

/** Every column but the PDF: lists and records never carry the document. */
const RECORD_COLUMNS = [
  'id',
  'merchant_id',
  'serial',
  'specimen',
  'month',
  'issue_date',
  'seller_name',
  'seller_address',
  'seller_tax_id',
  'seller_branch',
  'buyer_name',
  'buyer_address',
  'buyer_tax_id',
  'buyer_branch',
  'fees',
  'vat',
  'total',
  'currency',
  'created_at',
];

const toInvoice = (row: InvoiceRow): TaxInvoice => ({
  id: row.id,
  merchantId: row.merchant_id,
  serial: row.serial,
  specimen: row.specimen,
  month: row.month,
  issueDate: row.issue_date,
  issuedAt: row.created_at,
  seller: { name: row.seller_name, address: row.seller_address, taxId: row.seller_tax_id, branch: row.seller_branch },
  buyer: { name: row.buyer_name, address: row.buyer_address, taxId: row.buyer_tax_id, branch: row.buyer_branch },
  fees: Number(row.fees),
  vat: Number(row.vat),
  total: Number(row.total),
  currency: row.currency,
});

export const taxInvoiceRepository = (db: Db): TaxInvoiceRepository => ({
  async setTaxDetails(merchantId, details, at) {
    const known = await db('merchants').where('id', merchantId).first('id');
    if (!known) return false;
    await db('merchant_tax_details')
      .insert({ merchant_id: merchantId, tax_id: details.taxId, address: details.address, branch: details.branch, updated_at: at })
      .onConflict('merchant_id')
      .merge();
    return true;
  },
  async taxDetailsOf(merchantId) {
    const row = await db('merchant_tax_details').where('merchant_id', merchantId).first<{ tax_id: string; address: string; branch: string } | undefined>();
    return row ? { taxId: row.tax_id, address: row.address, branch: row.branch } : null;
  },
  async due(month, from, to) {
    const { rows } = await db.raw(
      `SELECT t.merchant_id, m.mode FROM balance_transactions t JOIN merchants m ON m.id = t.merchant_id
       WHERE t.fee > 0 AND t.created_at >= ? AND t.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM tax_invoices i WHERE i.merchant_id = t.merchant_id AND i.month = ?)
       GROUP BY t.merchant_id, m.mode ORDER BY t.merchant_id`,
      [from, to, month],
    );
    return (rows as { merchant_id: string; mode: 'test' | 'live' }[]).map((r) => ({ merchantId: r.merchant_id, mode: r.mode }));
  },
  async lockSequence(sequence) {
    // One statement makes the row if needed and locks it (DO UPDATE locks the row it meets) until the transaction ends.
    const { rows } = await db.raw(
      `INSERT INTO tax_invoice_counters (prefix, year, last_number) VALUES (?, ?, 0)
       ON CONFLICT (prefix, year) DO UPDATE SET last_number = tax_invoice_counters.last_number RETURNING last_number`,
      [sequence.prefix, sequence.year],
    );
    return Number(rows[0].last_number);
  },
  async advanceSequence(sequence, lastNumber) {
    await db('tax_invoice_counters').where({ prefix: sequence.prefix, year: sequence.year }).update({ last_number: lastNumber });
  },
  async findForMonth(merchantId, month) {
    const row = await db('tax_invoices').where({ merchant_id: merchantId, month }).first(RECORD_COLUMNS);
    return row ? toInvoice(row as InvoiceRow) : null;
  },
  async insert(i: TaxInvoice) {
    await db('tax_invoices').insert({
      id: i.id,
      merchant_id: i.merchantId,
      serial: i.serial,
      specimen: i.specimen,
      month: i.month,
      issue_date: i.issueDate,
      seller_name: i.seller.name,
      seller_address: i.seller.address,
      seller_tax_id: i.seller.taxId,
      seller_branch: i.seller.branch,
      buyer_name: i.buyer.name,
      buyer_address: i.buyer.address,
      buyer_tax_id: i.buyer.taxId,
      buyer_branch: i.buyer.branch,
      fees: i.fees,
      vat: i.vat,
      total: i.total,
      currency: i.currency,
      created_at: i.issuedAt,
    });
  },
  async findById(merchantId, id) {
    const row = await db('tax_invoices').where({ merchant_id: merchantId, id }).first(RECORD_COLUMNS);
    return row ? toInvoice(row as InvoiceRow) : null;
  },
  async list(merchantId, page) {
    const matching = db('tax_invoices').where('merchant_id', merchantId);
    const [rows, counted] = await Promise.all([
      matching
        .clone()
        .select(RECORD_COLUMNS)
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(page.limit)
        .offset(page.offset),
      matching.clone().count<{ count: number | string }[]>({ count: '*' }),
    ]);
    return { items: (rows as InvoiceRow[]).map(toInvoice), total: Number(counted[0]?.count ?? 0) };
  },
  async storePdf(id, pdf) {
    await db('tax_invoices')
      .where('id', id)
      .whereNull('pdf')
      .update({ pdf: Buffer.from(pdf) });
  },
  async pdfOf(id) {
    const row = await db('tax_invoices').where('id', id).first<{ pdf: Uint8Array | null } | undefined>('pdf');
    return row?.pdf ? new Uint8Array(row.pdf) : null;
  },
  async withoutPdf(limit) {
    const rows = await db('tax_invoices').whereNull('pdf').orderBy('created_at').limit(limit).select(RECORD_COLUMNS);
    return (rows as InvoiceRow[]).map(toInvoice);
  },
});
