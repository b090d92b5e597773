import { readFileSync } from 'node:fs';
import Mustache from 'mustache';
import { bahtText, HEAD_OFFICE, type TaxInvoice, type TaxParty } from '../../domain/tax-invoice.js';
import type { TaxInvoiceRenderer } from '../../ports/documents.js';
import type { PdfPrinter } from './pdf-printer.js';
import { fontFaces } from './thai-font.js';

const template = readFileSync(new URL('./templates/tax-invoice.html', import.meta.url), 'utf8');
Mustache.parse(template);

const branchText = (branch: string) => (branch === HEAD_OFFICE ? 'สำนักงานใหญ่ / Head office (00000)' : `สาขาที่ / Branch ${branch}`);

const party = (heading: string, p: TaxParty) => ({ heading, ...p, branchText: branchText(p.branch) });

/** The invoice as a page: every text escaped by Mustache, the fonts inline, nothing fetched. */
export function taxInvoiceHtml(invoice: TaxInvoice, faces = fontFaces()): string {
  return Mustache.render(template, {
    fontFaces: faces,
    serial: invoice.serial,
    issueDate: invoice.issueDate,
    month: invoice.month,
    specimen: invoice.specimen,
    parties: [party('ผู้ขาย / ผู้ให้บริการ / Seller', invoice.seller), party('ผู้ซื้อ / ผู้รับบริการ / Buyer', invoice.buyer)],
    fees: bahtText(invoice.fees),
    vat: bahtText(invoice.vat),
    total: bahtText(invoice.total),
  });
}

/** Tax invoices as PDF: the page above, printed by `printer`. */
export function taxInvoiceRenderer(printer: PdfPrinter): TaxInvoiceRenderer {
  const faces = fontFaces();
  return { render: (invoice) => printer.print(taxInvoiceHtml(invoice, faces)) };
}
