import { readFileSync } from 'node:fs';
import { bahttext } from 'bahttext';
import Mustache from 'mustache';
import { bahtText, HEAD_OFFICE, type TaxInvoice, type TaxParty } from '../../domain/tax-invoice.js';
import type { TaxInvoiceRenderer } from '../../ports/documents.js';
import type { PdfPrinter } from './pdf-printer.js';
import { fontFaces } from './thai-font.js';

const template = readFileSync(new URL('./templates/tax-invoice.html', import.meta.url), 'utf8');
Mustache.parse(template);

const branchText = (branch: string) => (branch === HEAD_OFFICE ? 'สำนักงานใหญ่ / Head office (00000)' : `สาขาที่ / Branch ${branch}`);

const party = (heading: string, p: TaxParty) => ({ heading, ...p, branchText: branchText(p.branch) });

/** The issue date as Thai documents write it: `27 พฤศจิกายน 2569` (the Buddhist era). */
const thaiDate = (date: string): string =>
  new Intl.DateTimeFormat('th-TH-u-ca-buddhist', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** The total in Thai words, as Excel's (and Google Sheets') BAHTTEXT writes it: `สามสิบสามบาทสองสตางค์`. */
export const totalInThaiWords = (satang: number): string => bahttext(satang / 100);

/** Two pages: the original for the buyer and the copy the seller keeps; a specimen says it is one on each. */
const copiesOf = (specimen: boolean) =>
  specimen
    ? [{ mark: 'ตัวอย่าง (ต้นฉบับ) / Specimen (original)' }, { mark: 'ตัวอย่าง (สำเนา) / Specimen (copy)' }]
    : [{ mark: 'ต้นฉบับ / Original' }, { mark: 'สำเนา / Copy' }];

/** The invoice as a page: every text escaped by Mustache, the fonts inline, nothing fetched. */
export function taxInvoiceHtml(invoice: TaxInvoice, faces = fontFaces()): string {
  return Mustache.render(template, {
    fontFaces: faces,
    copies: copiesOf(invoice.specimen),
    serial: invoice.serial,
    issueDate: invoice.issueDate,
    issueDateThai: thaiDate(invoice.issueDate),
    totalInWords: totalInThaiWords(invoice.total),
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
