// The reports resources end to end against the real server (in-process, real database, headless Chromium for PDFs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTaxDetails, issueTaxInvoices } from '../../server/src/app/tax-invoices.js';
import { NotFoundError, PaymentQrClient, type TaxInvoice } from '../src/index.js';
import { manualClock, startTestServer, type TestServer } from '../../server/test/support/test-server.js';

const clock = manualClock(new Date('2026-10-20T05:00:00.000Z'));
let server: TestServer;
let client: PaymentQrClient;
let merchantId: string;
beforeAll(async () => {
  server = await startTestServer({
    clock,
    backgroundJobs: false,
    env: { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' },
  });
  const merchant = await server.merchant({ feeBps: 300 });
  merchantId = merchant.id;
  client = new PaymentQrClient({ apiKey: merchant.apiKey, baseUrl: server.url });
  const qrCode = await client.qrCodes.create({ amount: 100_000, currency: 'THB', reference: 'ORDER-7' });
  await client.testHelpers.succeed(qrCode.payment_id);
});
afterAll(async () => {
  await server?.stop();
});

describe('client.reports', () => {
  it('retrieves a monthly statement as JSON and as CSV, and a daily settlement file', async () => {
    const statement = await client.reports.statements.retrieve('2026-10');
    expect(statement).toMatchObject({
      month: '2026-10',
      opening_balance: 0,
      payments: { count: 1, gross: 100_000 },
      fees: 3000,
      fee_vat: 210,
      closing_balance: 96_790,
    });
    const csv = await client.reports.statements.retrieveCsv('2026-10');
    expect(csv.split('\r\n')[0]).toBe('month,line,count,amount,amount_baht,currency');
    expect(csv).toContain('2026-10,closing_balance,,96790,967.90,THB');
    const settlement = await client.reports.settlements.retrieve('2026-10-20');
    // Each amount in satang and then in baht; the reference beside the source; each time in UTC and then in Bangkok.
    expect(settlement.split('\r\n')[1]).toMatch(
      /^bt_\w+,payment,100000,1000\.00,3000,30\.00,210,2\.10,96790,967\.90,THB,pay_\w+,ORDER-7,,[^,]+,[^,]+,[^,]+,[^,]+$/,
    );
  });

  it('lists, retrieves and downloads tax invoices', async () => {
    const s = server.running.runtime.services;
    await setTaxDetails(s, merchantId, { taxId: '0994000165510', address: '99 Sukhumvit Road, Bangkok 10110', branch: '00000' });
    await issueTaxInvoices(s, '2026-10', { actor: { kind: 'operator' }, channel: 'cli', clientAddress: null });
    const invoices: TaxInvoice[] = [];
    for await (const invoice of client.reports.taxInvoices.list({ limit: 1 })) invoices.push(invoice);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ specimen: true, month: '2026-10', fees: 3000, vat: 210, total: 3210 });
    expect(await client.reports.taxInvoices.retrieve(invoices[0]!.tax_invoice_id)).toEqual(invoices[0]);
    const pdf = await client.reports.taxInvoices.pdf(invoices[0]!.tax_invoice_id);
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(Buffer.from(await client.reports.taxInvoices.pdf(invoices[0]!.tax_invoice_id)).equals(Buffer.from(pdf))).toBe(true);
    const unknown = await client.reports.taxInvoices.pdf('tiv_unknown').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ code: 'tax_invoice_not_found', status: 404 });
  });
});
