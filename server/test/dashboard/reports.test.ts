import { beforeAll, describe, expect, it } from 'vitest';
import { issueTaxInvoices, setTaxDetails } from '../../src/app/tax-invoices.js';
import { operatorContext } from '../../src/domain/audit.js';
import { bangkokDateOf } from '../../src/domain/bangkok-day.js';
import { roles, roleMay } from '../../src/domain/permissions.js';
import { bangkokMonthOf } from '../../src/domain/statement.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { pdfText } from '../support/pdf.js';
import { usingTestServer } from '../support/test-server.js';

const OPERATOR = { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' };

const { server } = usingTestServer({ env: OPERATOR, backgroundJobs: false });
let api: ApiClient;
let apiKey: string;
let merchantId: string;
let month: string;
let owner: DashboardMember;
let invoiceId: string;

/** The dashboard's download and the API's answer, as bytes. */
async function bytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; body: Buffer; disposition: string | null }> {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}
const cookieOf = (member: DashboardMember) => ({ cookie: [...member.client.jar].map(([name, value]) => `${name}=${value}`).join('; ') });
const fromApi = (path: string) => bytes(`${server.url}/Thai/v1${path}`, { authorization: `Bearer ${apiKey}` });

beforeAll(async () => {
  const s = server.running.runtime.services;
  const merchant = await server.merchant({ feeBps: 250, name: 'ร้านบัญชีดี' });
  merchantId = merchant.id;
  apiKey = merchant.apiKey;
  api = apiClient(`${server.url}/Thai/v1`, { apiKey });
  for (const amount of [40_000, 12_345]) {
    const qr = await api.post('/qr-codes', { amount, currency: 'THB', reference: `=SUM(A${amount})` });
    expect((await api.post(`/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
  }
  expect(await setTaxDetails(s, merchantId, { taxId: '0994000165510', address: '99 ถนนสุขุมวิท กรุงเทพมหานคร 10110', branch: '00000' })).toBe(true);
  month = bangkokMonthOf(s.clock.now());
  const { issued } = await issueTaxInvoices(s, month, operatorContext);
  invoiceId = issued.find((invoice) => invoice.merchantId === merchantId)!.id;
  owner = await dashboardMember(server, { role: 'owner', merchantId });
});

describe('the Reports page', () => {
  it("shows the month's statement and offers the same CSV, settlement file and tax invoice bytes as the API", async () => {
    const page = decodeHtml((await owner.client.get(`/dashboard/reports?month=${month}`)).text);
    const statement = (await api.get(`/reports/statements/${month}`)).body;
    const bahtOf = (satang: number) => `฿${Math.floor(satang / 100).toLocaleString('en-US')}.${String(satang % 100).padStart(2, '0')}`;
    expect(statement.payments.gross).toBe(52_345);
    expect(page).toContain(`<td class="number">${bahtOf(statement.payments.gross)}</td>`);
    expect(page).toContain(`<td class="number">${bahtOf(statement.closing_balance)}</td>`);
    expect(page).toContain('ยอดยกไป');

    const csv = await bytes(`${server.url}/dashboard/reports/statements/${month}.csv`, cookieOf(owner));
    expect(csv.status).toBe(200);
    expect(csv.disposition).toBe(`attachment; filename="statement-${month}.csv"`);
    expect(csv.body.equals((await fromApi(`/reports/statements/${month}?format=csv`)).body)).toBe(true);

    const today = bangkokDateOf(server.running.runtime.services.clock.now());
    const settlement = await bytes(`${server.url}/dashboard/reports/settlements?date=${today}`, cookieOf(owner));
    expect(settlement.status).toBe(200);
    const fromTheApi = await fromApi(`/reports/settlements/${today}?format=csv`);
    expect(settlement.body.equals(fromTheApi.body)).toBe(true);
    expect(settlement.body.toString('utf8')).toContain("'=SUM(A40000)"); // the formula defence of every CSV

    expect(page).toContain(`/dashboard/reports/tax-invoices/${invoiceId}.pdf`);
    const pdf = await bytes(`${server.url}/dashboard/reports/tax-invoices/${invoiceId}.pdf`, cookieOf(owner));
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.body.equals((await fromApi(`/reports/tax-invoices/${invoiceId}/pdf`)).body)).toBe(true);
  });

  it('names the months in words, the Thai with the Buddhist-era year, not as 2026-11', async () => {
    const thai = decodeHtml((await owner.client.get('/dashboard/reports?month=2026-11&lang=th')).text);
    expect(thai).toContain('<h2 id="statement-title">รายการเดินบัญชีรายเดือน พฤศจิกายน 2569</h2>');
    const english = decodeHtml((await owner.client.get('/dashboard/reports?month=2026-11&lang=en')).text);
    expect(english).toContain('<h2 id="statement-title">Monthly statement November 2026</h2>');
    const invoiceCard = /data-tax-invoice-id="[^"]+">[\s\S]*?<\/li>/.exec(english)?.[0] ?? '';
    expect(invoiceCard).toMatch(/<dt>Month<\/dt><dd>[A-Z][a-z]+ \d{4}<\/dd>/);
    expect(invoiceCard).not.toContain(`<dd>${month}</dd>`);
    await owner.client.get('/dashboard/reports?lang=th'); // the language stays as the next tests expect it
  });

  it('renders the statement as a PDF with its Thai and its figures', async () => {
    const pdf = await bytes(`${server.url}/dashboard/reports/statements/${month}.pdf`, cookieOf(owner));
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const text = pdfText(new Uint8Array(pdf.body), `statement-${month}`);
    expect(text).toContain('รายการเดินบัญชี');
    expect(text).toContain('ร้านบัญชีดี');
    expect(text).toContain('523.45');
    // The month is still under way: the statement says as of when its figures were read.
    expect(text).toMatch(/as of\s+\d{4}-\d\d-\d\d \d\d:\d\d/);
    const closed = pdfText(new Uint8Array((await bytes(`${server.url}/dashboard/reports/statements/2025-01.pdf`, cookieOf(owner))).body), 'statement-closed');
    expect(closed).toContain('รายการเดินบัญชี');
    expect(closed).not.toMatch(/as of/);
  });

  it("answers a bad month or date, or another merchant's invoice, without a crash", async () => {
    expect((await owner.client.get('/dashboard/reports/statements/2026-13.csv')).status).toBe(404);
    expect((await owner.client.get('/dashboard/reports/settlements?date=yesterday')).status).toBe(404);
    expect((await owner.client.get('/dashboard/reports?month=nonsense')).status).toBe(200); // the month under way instead
    const stranger = await dashboardMember(server, { role: 'owner' });
    expect((await stranger.client.get(`/dashboard/reports/tax-invoices/${invoiceId}.pdf`)).status).toBe(404);
  });

  for (const role of roles) {
    const allowed = roleMay(role, 'reports:read');
    it(`${role}: ${allowed ? 'sees and downloads the reports' : '403 on the page and every download, and no Reports in the menu'}`, async () => {
      const member = role === 'owner' ? owner : await dashboardMember(server, { role, merchantId });
      const home = decodeHtml((await member.client.get('/dashboard')).text);
      expect(home.includes('href="/dashboard/reports"')).toBe(allowed);
      const paths = [
        `/dashboard/reports`,
        `/dashboard/reports/statements/${month}.csv`,
        `/dashboard/reports/settlements?date=${bangkokDateOf(new Date())}`,
        `/dashboard/reports/tax-invoices/${invoiceId}.pdf`,
      ];
      for (const path of paths) expect((await bytes(`${server.url}${path}`, cookieOf(member))).status, path).toBe(allowed ? 200 : 403);
    });
  }
});
