import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Mustache from 'mustache';
import type { Browser } from 'playwright-core';
import { bahtText, HEAD_OFFICE, type TaxInvoice, type TaxParty } from '../../domain/tax-invoice.js';
import type { TaxInvoiceRenderer } from '../../ports/documents.js';

const require = createRequire(import.meta.url);
const template = readFileSync(new URL('./templates/tax-invoice.html', import.meta.url), 'utf8');
Mustache.parse(template);

/** Noto Sans Thai from the npm package the checkout page serves, embedded in the page as data: the PDF carries the glyphs it uses. */
export function fontFaces(): string {
  const files = join(dirname(require.resolve('@fontsource/noto-sans-thai/package.json')), 'files');
  const ranges = JSON.parse(readFileSync(join(files, '..', 'unicode.json'), 'utf8')) as Record<string, string>;
  return ['thai', 'latin', 'latin-ext']
    .map((subset) => [subset, ranges[subset]] as const)
    .flatMap(([subset, range]) =>
      [400, 700].map((weight) => {
        const font = readFileSync(join(files, `noto-sans-thai-${subset}-${weight}-normal.woff2`)).toString('base64');
        return `@font-face { font-family: 'Noto Sans Thai'; font-weight: ${weight}; src: url(data:font/woff2;base64,${font}) format('woff2'); unicode-range: ${range}; }`;
      }),
    )
    .join('\n');
}

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

/**
 * The headless Chromium from @sparticuz/chromium; it unpacks its binary into a directory of its version under the temp
 * directory. Its modules load at the first document, not with every server, most of which never print one.
 */
export async function launch(): Promise<Browser> {
  const [{ default: chromium }, { chromium: playwright }] = await Promise.all([import('@sparticuz/chromium'), import('playwright-core')]);
  const version = (JSON.parse(readFileSync(require.resolve('@sparticuz/chromium').replace(/\/build\/.*$/, '/package.json'), 'utf8')) as { version: string })
    .version;
  const unpackInto = join(tmpdir(), `payment-qr-chromium-${version}`);
  mkdirSync(unpackInto, { recursive: true });
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = unpackInto;
  try {
    const executablePath = await chromium.executablePath();
    const args = chromium.args.filter((arg) => arg !== '--single-process');
    return await playwright.launch({ executablePath, args, headless: true });
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
}

/** A browser left idle this long is closed: invoices come once a month, and Chromium holds a lot of memory. */
const IDLE_CLOSE_MS = 60_000;

/**
 * Renders tax invoices as PDF with headless Chromium, which shapes Thai (marks above and below their consonants)
 * as a browser does. A browser is started on first use and closed after a minute without renders, or at `close`.
 */
export function chromiumTaxInvoicePdf(): TaxInvoiceRenderer & { close(): Promise<void> } {
  let browser: Promise<Browser> | null = null;
  let rendering = 0;
  let idle: NodeJS.Timeout | undefined;
  const faces = fontFaces();
  const close = async () => {
    clearTimeout(idle);
    const started = browser;
    browser = null;
    await (await started?.catch(() => null))?.close();
  };
  return {
    async render(invoice) {
      clearTimeout(idle);
      rendering += 1;
      try {
        browser ??= launch().catch((error: unknown) => {
          browser = null;
          throw error;
        });
        const context = await (await browser).newContext({ javaScriptEnabled: false, offline: true });
        try {
          const page = await context.newPage();
          await page.setContent(taxInvoiceHtml(invoice, faces), { waitUntil: 'load' });
          await page.evaluateHandle('document.fonts.ready').catch(() => undefined);
          return new Uint8Array(await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true }));
        } finally {
          await context.close();
        }
      } finally {
        rendering -= 1;
        if (rendering === 0) idle = setTimeout(() => void close().catch(() => undefined), IDLE_CLOSE_MS).unref();
      }
    },
    close,
  };
}
