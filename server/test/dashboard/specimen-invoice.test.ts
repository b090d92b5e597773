// A test merchant's owner issues the specimen of this month's tax invoice from the Reports page (no operator's CLI),
// downloads it, and sees it marked; a live merchant, a role without reports, or a form without its token cannot.
import { beforeAll, describe, expect, it } from 'vitest';
import { setTaxDetails } from '../../src/app/tax-invoices.js';
import { paid } from '../balance/fixtures.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { pdfText } from '../support/pdf.js';
import { usingTestServer } from '../support/test-server.js';

const OPERATOR = { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' };
const TAX_DETAILS = { taxId: '0994000165510', address: '99 ถนนสุขุมวิท กรุงเทพมหานคร 10110', branch: '00000' };

const { server } = usingTestServer({ env: OPERATOR, backgroundJobs: false });

/** A merchant's owner, the merchant having paid fees this month (unless `fees` is false) and tax details (unless false). */
async function ownerOf(options: { mode?: 'test' | 'live'; fees?: boolean; taxDetails?: boolean } = {}): Promise<DashboardMember & { merchantId: string }> {
  const merchant = await server.merchant({ feeBps: options.fees === false ? 0 : 250, mode: options.mode ?? 'test' });
  if (options.fees !== false && options.mode !== 'live') await paid(apiClient(server.url, merchant), 40_000);
  if (options.taxDetails !== false) expect(await setTaxDetails(server.running.runtime.services, merchant.id, TAX_DETAILS)).toBe(true);
  return { ...(await dashboardMember(server, { role: 'owner', merchantId: merchant.id })), merchantId: merchant.id };
}

const specimensOf = (merchantId: string) => server.running.runtime.db.knex('tax_invoices').where({ merchant_id: merchantId }).select('serial', 'specimen');
const noticeOf = (html: string) => decodeHtml(/id="notice" role="status">([^<]*)</.exec(html)?.[1] ?? '').trim();
const errorOf = (html: string) => decodeHtml(/id="form-error" role="alert">([^<]*)</.exec(html)?.[1] ?? '');

describe("a test merchant's specimen from the Reports page", () => {
  let owner: DashboardMember & { merchantId: string };
  beforeAll(async () => {
    owner = await ownerOf();
  });

  it('is issued by the form, marked, downloaded as a PDF, and once a month', async () => {
    const page = await owner.client.get('/dashboard/reports');
    expect(decodeHtml(page.text)).toMatch(/<form[^>]+action="\/dashboard\/reports\/specimen" id="issue-specimen">\s*<input type="hidden" name="_csrf"/);
    const issued = await owner.client.post('/dashboard/reports/specimen');
    expect(issued.status).toBe(200);
    const [specimen] = await specimensOf(owner.merchantId);
    expect(specimen).toMatchObject({ specimen: true, serial: expect.stringMatching(/^TEST-TIV-\d{4}-\d{6}$/) });
    expect(noticeOf(issued.text)).toBe(`ออกตัวอย่างใบกำกับภาษี ${specimen.serial} แล้ว`);

    const href = /id="specimen-pdf" href="([^"]+)"/.exec(decodeHtml(issued.text))?.[1] ?? '';
    const pdf = await fetch(`${server.url}${href}`, { headers: { cookie: [...owner.client.jar].map(([n, v]) => `${n}=${v}`).join('; ') } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()), 'specimen-from-dashboard');
    expect(text).toContain('ตัวอย่าง / SPECIMEN');
    expect(text).toContain(specimen.serial);

    const again = await owner.client.post('/dashboard/reports/specimen');
    expect(noticeOf(again.text)).toBe(`ออกตัวอย่างใบกำกับภาษี ${specimen.serial} แล้ว`);
    expect(await specimensOf(owner.merchantId)).toHaveLength(1);
    const audited = (await server.auditEntries(owner.merchantId)).filter((entry) => entry.action === 'tax_invoice_issued');
    expect(audited).toEqual([
      expect.objectContaining({ context: expect.objectContaining({ actor: expect.objectContaining({ kind: 'user' }), channel: 'dashboard' }) }),
    ]);
  });

  it('says in the page’s language why not, when the month has no fees or the merchant no tax details', async () => {
    const withoutFees = await ownerOf({ fees: false });
    await withoutFees.client.get('/dashboard/reports');
    const noFees = await withoutFees.client.post('/dashboard/reports/specimen');
    expect(noFees.status).toBe(422);
    expect(errorOf(noFees.text)).toContain('เดือนนี้ยังไม่มีค่าธรรมเนียม');

    const withoutDetails = await ownerOf({ taxDetails: false });
    await withoutDetails.client.get('/dashboard/reports?lang=en');
    const noDetails = await withoutDetails.client.post('/dashboard/reports/specimen');
    expect(noDetails.status).toBe(422);
    expect(errorOf(noDetails.text)).toBe('Not yet: give the merchant’s tax id and address first.');
    expect([...(await specimensOf(withoutFees.merchantId)), ...(await specimensOf(withoutDetails.merchantId))]).toEqual([]);
  });

  it('is not offered to a live merchant, nor to a role without reports, nor sent without the form’s token', async () => {
    const live = await ownerOf({ mode: 'live' });
    expect((await live.client.get('/dashboard/reports')).text).not.toContain('issue-specimen');
    expect((await live.client.post('/dashboard/reports/specimen')).status).toBe(403);

    const other = await ownerOf();
    const developer = await dashboardMember(server, { role: 'developer', merchantId: other.merchantId });
    await developer.client.get('/dashboard');
    expect((await developer.client.post('/dashboard/reports/specimen')).status).toBe(403);
    await other.client.get('/dashboard/reports');
    expect((await other.client.post('/dashboard/reports/specimen', {}, { csrf: null })).status).toBe(403);
    expect([...(await specimensOf(live.merchantId)), ...(await specimensOf(other.merchantId))]).toEqual([]);
  });
});
