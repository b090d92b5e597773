import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumPdfPrinter, launchChromium } from '../../src/adapters/documents/pdf-printer.js';
import { statementRenderer } from '../../src/adapters/documents/statement-pdf.js';
import { taxInvoiceRenderer } from '../../src/adapters/documents/tax-invoice-pdf.js';
import type { MonthlyStatement } from '../../src/domain/statement.js';
import type { TaxInvoice } from '../../src/domain/tax-invoice.js';
import { pdfText } from '../support/pdf.js';

const invoice: TaxInvoice = {
  id: 'tiv_printer',
  merchantId: 'mch_printer',
  serial: 'TIV-2026-000042',
  specimen: false,
  month: '2026-10',
  issueDate: '2026-11-01',
  issuedAt: new Date('2026-11-01T00:00:00.000Z'),
  seller: { name: 'Payment QR Co., Ltd.', address: '1 Silom Road, Bangkok 10500', taxId: '0105536092641', branch: '00000' },
  buyer: { name: 'ร้านพิมพ์ดี', address: '99 Sukhumvit Road, Bangkok 10110', taxId: '0994000165510', branch: '00001' },
  fees: 3_000,
  vat: 210,
  total: 3_210,
  currency: 'THB',
};

const none = { count: 0, amount: 0 };
const statement: MonthlyStatement = {
  merchantId: 'mch_printer',
  month: '2026-10',
  currency: 'THB',
  periodStart: new Date('2026-09-30T17:00:00.000Z'),
  periodEnd: new Date('2026-10-31T17:00:00.000Z'),
  openingBalance: 0,
  payments: { count: 1, gross: 100_000 },
  fees: 3_000,
  feeVat: 210,
  refunds: none,
  withdrawals: none,
  reversals: none,
  closingBalance: 96_790,
};

const printer = chromiumPdfPrinter();
afterAll(() => printer.close());

describe('one PDF printer for every document', () => {
  it('prints a tax invoice and a statement at once in the one browser, and starts it again after close', async () => {
    const [invoicePdf, statementPdf] = await Promise.all([
      taxInvoiceRenderer(printer).render(invoice),
      statementRenderer(printer).render(statement, 'ร้านพิมพ์ดี'),
    ]);
    const invoiceText = pdfText(invoicePdf, 'printer-tax-invoice');
    expect(invoiceText).toContain('TIV-2026-000042');
    expect(invoiceText).toContain('32.10');
    const statementText = pdfText(statementPdf, 'printer-statement');
    expect(statementText).toContain('รายการเดินบัญชี');
    expect(statementText).toContain('967.90');

    await printer.close();
    expect(pdfText(await taxInvoiceRenderer(printer).render(invoice), 'printer-after-close')).toContain('TIV-2026-000042');
  });
});

describe('Chromium launched', () => {
  it('once more when it dies at its launch (killed by a signal), and not a third time', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pqr-dies-'));
    try {
      const real = await launchChromium({ unpackRoot: root }); // unpacks the real binary under root
      await real.close();
      const unpacked = join(root, readdirSync(root)[0]!);
      renameSync(join(unpacked, 'chromium'), join(unpacked, 'chromium-real'));
      // In its place: a Chromium that dies of SIGSEGV at the launches the test allows, then the real one.
      const deaths = join(root, 'deaths-left');
      writeFileSync(
        join(unpacked, 'chromium'),
        `#!/bin/sh\nleft=$(cat ${deaths}); if [ "$left" -gt 0 ]; then echo $((left - 1)) > ${deaths}; kill -SEGV $$; fi\nexec ${join(unpacked, 'chromium-real')} "$@"\n`,
        { mode: 0o755 },
      );
      writeFileSync(deaths, '1');
      const browser = await launchChromium({ unpackRoot: root });
      expect(browser.isConnected()).toBe(true);
      await browser.close();
      expect(readFileSync(deaths, 'utf8').trim()).toBe('0');

      writeFileSync(deaths, '2');
      await expect(launchChromium({ unpackRoot: root })).rejects.toThrow(/signal=SIGSEGV/);
      expect(readFileSync(deaths, 'utf8').trim()).toBe('0');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('Chromium unpacked once', () => {
  it('starts from a fresh temp directory for two launches at once: each unpacks into its own and one is kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pqr-unpack-'));
    try {
      const browsers = await Promise.all([launchChromium({ unpackRoot: root }), launchChromium({ unpackRoot: root })]);
      await Promise.all(browsers.map((browser) => browser.close()));
      expect(readdirSync(root)).toEqual([expect.stringMatching(/^payment-qr-chromium-[\d.]+$/)]);
      expect(readdirSync(join(root, readdirSync(root)[0]!))).toContain('chromium');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
