import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditPayment } from '../../src/app/ledger.js';
import type { Services } from '../../src/app/services.js';
import { issueTaxInvoices, setTaxDetails, taxInvoicingJob } from '../../src/app/tax-invoices.js';
import type { AuditContext } from '../../src/domain/audit.js';
import { taxInvoiceOf } from '../../src/domain/tax-invoice.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { pdfText, pdfToPng } from '../support/pdf.js';
import { manualClock, usingTestServer } from '../support/test-server.js';
import { paid } from '../balance/fixtures.js';
import { paymentRecord } from '../support/payments.js';

const OPERATOR = {
  OPERATOR_NAME: 'บริษัท เพย์เมนต์ คิวอาร์ จำกัด (Payment QR Co., Ltd.)',
  OPERATOR_ADDRESS: '1 ถนนสีลม แขวงสุริยวงศ์ เขตบางรัก กรุงเทพมหานคร 10500',
  OPERATOR_TAX_ID: '0105536092641',
};
const BUYER_TAX_ID = '0994000165510';
const CLI: AuditContext = { actor: { kind: 'operator' }, channel: 'cli', clientAddress: null };

const clock = manualClock(new Date('2026-09-10T03:00:00.000Z'));
let s: Services;

// No background jobs: the tests issue themselves (the job would issue the same invoices, only sooner).
const { server } = usingTestServer({ clock, backgroundJobs: false, env: OPERATOR });
beforeAll(async () => {
  s = server.running.runtime.services;
});

type Merchant = { id: string; apiKey: string; api: ApiClient };

async function merchantWithTaxDetails(options: { mode?: 'test' | 'live'; name?: string } = {}): Promise<Merchant> {
  const merchant = await server.merchant({ feeBps: 250, ...options });
  expect(
    await setTaxDetails(s, merchant.id, { taxId: BUYER_TAX_ID, address: '99 ถนนสุขุมวิท แขวงคลองเตย เขตคลองเตย กรุงเทพมหานคร 10110', branch: '00001' }),
  ).toBe(true);
  return { ...merchant, api: apiClient(server.url, merchant) };
}

/**
 * A live payment credited as the bank connection's use case credits it: live QR payments need the bank (a process
 * boundary this file does not run), so the ledger gets the payment through creditPayment itself.
 */
async function livePaymentCredited(merchantId: string, amount: number): Promise<void> {
  const now = s.clock.now();
  const payment = paymentRecord({ id: s.ids.next('payment'), merchantId, status: 'succeeded', amount, createdAt: now, completedAt: now });
  await s.uow.run((tx) => creditPayment(tx, s, payment));
}

/** The PDF's bytes as sent. */
async function download(merchant: { apiKey: string }, id: string) {
  const res = await fetch(`${server.url}/Thai/v1/reports/tax-invoices/${id}/pdf`, { headers: { authorization: `Bearer ${merchant.apiKey}` } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('tax invoices', () => {
  let live: Merchant;
  let test: Merchant;

  it('issues a test merchant a specimen for the month under way, and a live merchant its invoice only once the month has ended', async () => {
    live = await merchantWithTaxDetails({ mode: 'live', name: 'ร้านก๋วยเตี๋ยว Noodle Shop' });
    test = await merchantWithTaxDetails({ name: 'Sandbox shop' });
    await livePaymentCredited(live.id, 123_456); // fee 3086.4 -> 3086 satang, VAT 216.02 -> 216
    await paid(test.api, 40_000); // fee 1000, VAT 70

    clock.set(new Date('2026-09-20T03:00:00.000Z'));
    const during = await issueTaxInvoices(s, '2026-09', CLI);
    expect(during.issued.map((i) => [i.merchantId, i.specimen])).toEqual([[test.id, true]]);
    await expect(issueTaxInvoices(s, '2026-10', CLI)).rejects.toThrow(/has not begun/);

    clock.set(new Date('2026-09-30T17:15:00.000Z')); // 00:15 on 1 October in Bangkok, past the grace after the month's end
    const after = await issueTaxInvoices(s, '2026-09', CLI);
    expect(after.issued).toHaveLength(1);
    const [invoice] = after.issued;
    expect(invoice).toMatchObject({ merchantId: live.id, specimen: false, month: '2026-09', issueDate: '2026-10-01', fees: 3086, vat: 216, total: 3302 });
    expect(invoice!.serial).toMatch(/^TIV-2026-\d{6}$/);
    expect((await issueTaxInvoices(s, '2026-09', CLI)).issued).toEqual([]); // once per merchant and month
  });

  it('answers the record, lists it, and keeps each merchant to its own', async () => {
    const list = await live.api.get('/Thai/v1/reports/tax-invoices');
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    const [record] = list.body.tax_invoices;
    expect(record).toMatchObject({
      serial: 'TIV-2026-000001',
      specimen: false,
      month: '2026-09',
      issue_date: '2026-10-01',
      seller: { name: OPERATOR.OPERATOR_NAME, address: OPERATOR.OPERATOR_ADDRESS, tax_id: OPERATOR.OPERATOR_TAX_ID, branch: '00000' },
      buyer: { name: 'ร้านก๋วยเตี๋ยว Noodle Shop', tax_id: BUYER_TAX_ID, branch: '00001' },
      fees: 3086,
      vat: 216,
      total: 3302,
      currency: 'THB',
    });
    expect((await live.api.get(`/Thai/v1/reports/tax-invoices/${record.tax_invoice_id}`)).body).toEqual(record);
    expectEnvelope(await test.api.get(`/Thai/v1/reports/tax-invoices/${record.tax_invoice_id}`), 404, 'tax_invoice_not_found');
    expectEnvelope(await test.api.get(`/Thai/v1/reports/tax-invoices/${record.tax_invoice_id}/pdf`), 404, 'tax_invoice_not_found');
    expectEnvelope(await live.api.get('/Thai/v1/reports/tax-invoices/tiv_unknown'), 404, 'tax_invoice_not_found');
    const specimens = (await test.api.get('/Thai/v1/reports/tax-invoices')).body.tax_invoices;
    expect(specimens.map((i: { serial: string; specimen: boolean }) => i.specimen)).toEqual([true]);
    expect(specimens[0].serial).toMatch(/^TEST-TIV-2026-\d{6}$/);
  });

  it('answers the same PDF bytes on every download, with the Thai, both tax ids, the fee, the VAT and the total', async () => {
    const [record] = (await live.api.get('/Thai/v1/reports/tax-invoices')).body.tax_invoices;
    const first = await download(live, record.tax_invoice_id);
    const second = await download(live, record.tax_invoice_id);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/pdf');
    expect(first.disposition).toBe('attachment; filename="TIV-2026-000001.pdf"');
    expect(first.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(second.bytes.equals(first.bytes)).toBe(true);

    const text = pdfText(first.bytes, 'tax-invoice');
    for (const words of ['ใบกำกับภาษี', 'Tax Invoice', 'TIV-2026-000001', OPERATOR.OPERATOR_TAX_ID, BUYER_TAX_ID, 'ร้านก๋วยเตี๋ยว', 'สำนักงานใหญ่', '00001']) {
      expect(text).toContain(words);
    }
    expect(text).toMatch(/ค่าธรรมเนียม.*\s30\.86\b/);
    expect(text).toMatch(/ภาษีมูลค่าเพิ่ม 7% \/ VAT 7%\s+2\.16\b/);
    expect(text).toMatch(/รวมทั้งสิ้น \/ Total\s+33\.02\b/);
    expect(text).toContain('(สามสิบสามบาทสองสตางค์)');
    expect(text).not.toContain('SPECIMEN');
    // The original for the buyer, then the copy, each a whole invoice with its issue date in Thai.
    const pages = text.split('\f');
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('ต้นฉบับ / Original');
    expect(pages[1]).toContain('สำเนา / Copy');
    for (const page of pages) {
      expect(page).toContain('TIV-2026-000001');
      expect(page).toMatch(/วันที่ออก \/ Issue date \d{1,2} [ก-๙]+ 25\d\d \(2026-\d\d-\d\d\)/);
      expect(page).toContain('(สามสิบสามบาทสองสตางค์)');
    }
    expect(existsSync(pdfToPng('tax-invoice', { docs: true }))).toBe(true);
  });

  it("marks a test merchant's specimen ตัวอย่าง / SPECIMEN", async () => {
    const [specimen] = (await test.api.get('/Thai/v1/reports/tax-invoices')).body.tax_invoices;
    const text = pdfText((await download(test, specimen.tax_invoice_id)).bytes, 'tax-invoice-specimen');
    expect(text).toContain('ตัวอย่าง / SPECIMEN');
    expect(text).toContain(specimen.serial);
    expect(existsSync(pdfToPng('tax-invoice-specimen'))).toBe(true);
  });

  it('numbers invoices without gaps or duplicates when two issuers run at once over many merchants', async () => {
    clock.set(new Date('2026-10-15T03:00:00.000Z'));
    const merchants = [];
    for (let i = 0; i < 8; i++) {
      const merchant = await merchantWithTaxDetails({ mode: i % 2 === 0 ? 'live' : 'test', name: `ร้านที่ ${i + 1}` });
      if (i % 2 === 0) await livePaymentCredited(merchant.id, 10_000 * (i + 1));
      else await paid(merchant.api, 10_000 * (i + 1));
      merchants.push(merchant);
    }
    const withoutDetails = await server.merchant({ feeBps: 250, mode: 'live' });
    await livePaymentCredited(withoutDetails.id, 50_000);

    clock.set(new Date('2026-10-31T17:10:00.000Z')); // 00:10: October has ended in Bangkok, and the grace for its last payments
    const runs = await Promise.all([issueTaxInvoices(s, '2026-10', CLI), issueTaxInvoices(s, '2026-10', CLI)]);
    const issued = runs.flatMap((run) => run.issued);
    expect(issued.map((i) => i.merchantId).sort()).toEqual(merchants.map((m) => m.id).sort());
    expect(runs[0]!.skipped.concat(runs[1]!.skipped).map((skip) => skip.merchantId)).toEqual([withoutDetails.id, withoutDetails.id]);

    const knex = server.running.runtime.db.knex;
    for (const prefix of ['TIV', 'TEST-TIV']) {
      const serials: string[] = (await knex('tax_invoices').where('serial', 'like', `${prefix}-2026-%`).pluck('serial')).sort();
      expect(serials).toEqual(serials.map((_, i) => `${prefix}-2026-${String(i + 1).padStart(6, '0')}`));
      const [counter] = await knex('tax_invoice_counters').where({ prefix, year: 2026 }).pluck('last_number');
      expect(Number(counter)).toBe(serials.length);
    }
    const audited = await knex('audit_entries').where('action', 'tax_invoice_issued').pluck('subject_id');
    expect(audited).toEqual(expect.arrayContaining(issued.map((i) => i.id)));
    expect(new Set(audited).size).toBe(audited.length);
  });

  it("the background job issues the month that ended once its grace has passed, once, audited as the operator's job", async () => {
    clock.set(new Date('2026-11-20T03:00:00.000Z'));
    const merchant = await merchantWithTaxDetails({ mode: 'live' });
    await livePaymentCredited(merchant.id, 20_000);
    const [job, otherInstance] = [taxInvoicingJob(s), taxInvoicingJob(s)];
    expect(await job()).toBe(0); // November is under way: October's were issued already
    clock.set(new Date('2026-11-30T16:59:59.000Z'));
    await livePaymentCredited(merchant.id, 10_000); // the month's last second
    clock.set(new Date('2026-11-30T17:05:00.000Z'));
    expect(await job()).toBe(0); // within the grace: a payment of the last instant may still be committing
    clock.set(new Date('2026-11-30T17:10:00.000Z'));
    expect((await Promise.all([job(), otherInstance()])).sort()).toEqual([0, 1]);
    const [invoice] = (await merchant.api.get('/Thai/v1/reports/tax-invoices')).body.tax_invoices;
    expect(invoice).toMatchObject({ month: '2026-11', issue_date: '2026-12-01', fees: 750, vat: 53, total: 803 });
    const [entry] = await server.running.runtime.db.knex('audit_entries').where('subject_id', invoice.tax_invoice_id);
    expect(entry).toMatchObject({ merchant_id: merchant.id, action: 'tax_invoice_issued', channel: 'job' });
    expect((await download(merchant, invoice.tax_invoice_id)).bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('renders and keeps the PDF at the first download when its issuer stopped before keeping it', async () => {
    const merchant = await merchantWithTaxDetails({ mode: 'live' });
    // Issued (in another year's sequence) by an issuer that stopped between its transaction and the PDF.
    const invoice = taxInvoiceOf({
      id: s.ids.next('taxInvoice'),
      merchantId: merchant.id,
      mode: 'live',
      month: '2025-05',
      number: 1,
      issuedAt: new Date('2025-06-01T02:00:00.000Z'),
      seller: s.operator!,
      buyer: { name: 'Late shop', taxId: BUYER_TAX_ID, address: '1 Rama IV Road', branch: '00000' },
      fees: 1000,
      vat: 70,
    });
    await s.uow.run((tx) => tx.taxInvoices.insert(invoice));
    const knex = server.running.runtime.db.knex;
    expect(await knex('tax_invoices').where('id', invoice.id).whereNull('pdf').pluck('id')).toEqual([invoice.id]);
    const first = await download(merchant, invoice.id);
    expect(first.status).toBe(200);
    expect(first.disposition).toBe('attachment; filename="TIV-2025-000001.pdf"');
    expect((await download(merchant, invoice.id)).bytes.equals(first.bytes)).toBe(true);
    const [stored] = await knex('tax_invoices').where('id', invoice.id).pluck('pdf');
    expect(Buffer.from(stored as Uint8Array).equals(first.bytes)).toBe(true);
  });

  it('never changes an issued invoice, not even in the database', async () => {
    const knex = server.running.runtime.db.knex;
    const [id] = await knex('tax_invoices').where('serial', 'TIV-2026-000001').pluck('id');
    await expect(knex('tax_invoices').where('id', id).update({ total: 1 })).rejects.toThrow(/never changes/);
    await expect(
      knex('tax_invoices')
        .where('id', id)
        .update({ pdf: Buffer.from('forged') }),
    ).rejects.toThrow(/never changes/);
    await expect(knex('tax_invoices').where('id', id).delete()).rejects.toThrow(/never deleted/);
  });
});
