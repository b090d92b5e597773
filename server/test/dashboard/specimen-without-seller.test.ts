// Without the operator: a deployment with no seller's details (OPERATOR_NAME, OPERATOR_ADDRESS, OPERATOR_TAX_ID) and a
// test merchant with no tax details recorded. Its owner gives the merchant's tax details on the Reports page's form and
// gets the specimen, with the sample seller; details that cannot be used are refused in the page's language.
import { expect, it } from 'vitest';
import { paid } from '../balance/fixtures.js';
import { dashboardMember, decodeHtml } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { pdfText } from '../support/pdf.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer({ backgroundJobs: false });
const invoicesOf = (merchantId: string) => server.running.runtime.db.knex('tax_invoices').where({ merchant_id: merchantId }).select('id', 'serial');

it('issues a test merchant’s specimen with the tax details its owner gives and the sample seller', async () => {
  const merchant = await server.merchant({ feeBps: 250 });
  await paid(apiClient(server.url, merchant), 40_000);
  const owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
  const page = await owner.client.get('/dashboard/reports');
  expect(page.text).toContain('name="tax_id"');

  const refused = await owner.client.post('/dashboard/reports/specimen', { tax_id: '0994000165511', address: '99 ถนนสุขุมวิท', branch: '00000' });
  expect(refused.status).toBe(422);
  expect(decodeHtml(/id="form-error" role="alert">([^<]*)</.exec(refused.text)?.[1] ?? '')).toContain('ข้อมูลภาษีใช้ไม่ได้');
  expect(await invoicesOf(merchant.id)).toEqual([]);

  const issued = await owner.client.post('/dashboard/reports/specimen', {
    tax_id: '0994000165510',
    address: '99 ถนนสุขุมวิท กรุงเทพมหานคร 10110',
    branch: '00000',
  });
  expect(issued.status).toBe(200);
  const [specimen] = await invoicesOf(merchant.id);
  expect(specimen?.serial).toMatch(/^TEST-TIV-\d{4}-\d{6}$/);
  const pdf = await server.running.runtime.db.knex('tax_invoices').where({ id: specimen!.id }).first('pdf');
  const text = pdfText(new Uint8Array(pdf.pdf as Buffer), 'specimen-sample-seller');
  expect(text).toContain('ตัวอย่าง / SPECIMEN');
  expect(text).toContain('Sample operator');
  expect(text).toContain('0994000165510');
  expect((await owner.client.get('/dashboard/reports')).text).not.toContain('name="tax_id"'); // recorded now
});
