import { afterAll, expect, it } from 'vitest';
import { chromiumPdfPrinter } from '../../src/adapters/documents/pdf-printer.js';
import { taxInvoiceHtml } from '../../src/adapters/documents/tax-invoice-pdf.js';
import { taxInvoiceOf } from '../../src/domain/tax-invoice.js';
import { pdfText } from '../support/pdf.js';

// The total in Thai words, as Excel's BAHTTEXT writes them, read back from the printed PDF (both pages).
const printer = chromiumPdfPrinter();
afterAll(() => printer.close());

const party = { name: 'ร้านก๋วยเตี๋ยว', address: '99 ถนนสุขุมวิท กรุงเทพมหานคร 10110', taxId: '0994000165510', branch: '00000' };

it.each([
  [1, 'หนึ่งสตางค์'],
  [2_100, 'ยี่สิบเอ็ดบาทถ้วน'],
  [10_000, 'หนึ่งร้อยบาทถ้วน'],
  [100_000_150, 'หนึ่งล้านหนึ่งบาทห้าสิบสตางค์'],
])('writes a total of %i satang as (%s)', async (total, words) => {
  const vat = Math.floor(total / 15);
  const invoice = taxInvoiceOf({
    id: 'tiv_words',
    merchantId: 'mch_words',
    mode: 'live',
    month: '2026-10',
    number: 1,
    issuedAt: new Date('2026-11-01T03:00:00Z'),
    seller: party,
    buyer: party,
    fees: total - vat,
    vat,
  });
  expect(invoice.total).toBe(total);
  const pages = pdfText(await printer.print(taxInvoiceHtml(invoice)), `tax-invoice-words-${total}`).split('\f');
  expect(pages).toHaveLength(2);
  for (const page of pages) expect(page).toContain(`(${words})`);
});
