// Without the operator's seller details (OPERATOR_NAME, OPERATOR_ADDRESS, OPERATOR_TAX_ID) no specimen can be issued:
// the Reports page says so in the page's language, and nothing is issued.
import { expect, it } from 'vitest';
import { paid } from '../balance/fixtures.js';
import { dashboardMember, decodeHtml } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer({ backgroundJobs: false });

it('says the seller’s details are missing, and issues nothing', async () => {
  const merchant = await server.merchant({ feeBps: 250 });
  await paid(apiClient(server.url, merchant), 40_000);
  const owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
  await owner.client.get('/dashboard/reports');
  const refused = await owner.client.post('/dashboard/reports/specimen');
  expect(refused.status).toBe(422);
  expect(decodeHtml(/id="form-error" role="alert">([^<]*)</.exec(refused.text)?.[1] ?? '')).toContain('ผู้ให้บริการยังไม่ได้ตั้งข้อมูลผู้ขาย');
  expect(Number((await server.running.runtime.db.knex('tax_invoices').where({ merchant_id: merchant.id }).count({ n: '*' }))[0]!.n)).toBe(0);
});
