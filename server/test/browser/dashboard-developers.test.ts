import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueTaxInvoices, setTaxDetails } from '../../src/app/tax-invoices.js';
import { operatorContext } from '../../src/domain/audit.js';
import { bangkokMonthOf } from '../../src/domain/statement.js';
import { screenshot, usingBrowser, openPage, expectSoundPage, type Traffic } from '../support/browser.js';
import { dashboardMember, type DashboardMember } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';

const OPERATOR = { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' };

// One browser, one server (its webhook dispatcher on, loopback receivers allowed, a time-out no busy machine reaches) and one receiver.
const { server, merchant, api } = usingTestServer({
  env: { WEBHOOK_DISPATCHER: 'on', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms', WEBHOOK_TIMEOUT_MS: '5000', ...OPERATOR },
  merchant: { name: 'ร้านกาแฟบ้านสวน', feeBps: 250 },
});
const receiver = usingReceiver();
const browser = usingBrowser();
let owner: DashboardMember;
beforeAll(async () => {
  owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
});

const checkPage = (page: Page, traffic: Traffic, what: string) => expectSoundPage(page, traffic, what, { origin: server.url });

async function paidPayment(amount: number) {
  const qr = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB', reference: 'ORDER-7' });
  expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
}

describe('the Developers and Reports pages in a real browser', { timeout: 180_000 }, () => {
  it('a developer makes a restricted key and a webhook to a local receiver, sends a test, sees the delivery and retries it (Thai, phone)', async () => {
    const developer = await dashboardMember(server, { role: 'developer', merchantId: owner.merchantId, email: 'dev@example.com' });
    const context = await developer.browserContext(browser);
    const { page, traffic } = await openPage(context, `${server.url}/dashboard/developers`);
    expect(await page.getAttribute('html', 'lang')).toBe('th');
    expect(await page.locator('h1').textContent()).toBe('คีย์ API');
    await checkPage(page, traffic, 'keys');

    await page.locator('input[name="perm_qr_codes"][value="write"]').check();
    await page.locator('input[name="perm_payments"][value="read"]').check();
    await page.getByRole('button', { name: 'สร้างคีย์' }).click();
    const key = (await page.locator('#new-key-value').textContent())!;
    expect(key).toMatch(/^rk_test_/);
    expect(await page.locator('#api-keys .key-permissions').allTextContents()).toContain('qr_codes:write, payments:read');
    await checkPage(page, traffic, 'keys with the new key');
    await screenshot(page, 'dashboard-developers-keys-th-mobile', { docs: true });
    const pos = apiClient(`${server.url}/Thai/v1`, { apiKey: key });
    expect((await pos.post('/qr-codes', { amount: 5000, currency: 'THB' })).status).toBe(200);
    expect((await pos.get('/balance')).status).toBe(403);

    await page.locator('.tabs').getByRole('link', { name: 'เว็บฮุก' }).click();
    await page.getByLabel('URL').fill(receiver.endpoint('/dashboard-hook'));
    await page.getByLabel('payment.succeeded').check();
    await page.getByRole('button', { name: 'เพิ่มเว็บฮุก' }).click();
    await page.waitForURL(/\/dashboard\/developers\/webhooks\/wh_\w+\?done=created$/);
    expect(await page.locator('#notice').textContent()).toContain('เพิ่มเว็บฮุกแล้ว');

    await page.locator('#reveal-secret').click();
    const secret = (await page.locator('#secret-value').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    receiver.verifyWith('/dashboard-hook', secret);
    await page.goBack();

    await page.locator('#send-test').click();
    await page.waitForURL(/\?done=tested$/);
    const first = await eventually(() => receiver.at('/dashboard-hook')[0], 'the test event at the receiver');
    expect(first.payload.event).toBe('webhook.test');
    expect(first.verified).toBe(true);
    const delivered = page.locator('#deliveries .delivery[data-status="delivered"]');
    await eventually(async () => {
      await page.reload();
      return (await delivered.count()) === 1;
    }, 'the delivery shown as delivered');
    expect(await delivered.locator('.delivery-attempts').textContent()).toBe('1');
    expect(await delivered.locator('.delivery-response').textContent()).toBe('200');

    await delivered.locator('button.retry').click();
    await page.waitForURL(/\?done=retried&id=/);
    const again = await eventually(() => receiver.at('/dashboard-hook')[1], 'the retried delivery at the receiver');
    expect(again.id).toBe(first.id); // the same delivery, so the same webhook-id
    expect(again.verified).toBe(true);
    await eventually(async () => {
      await page.reload();
      return (await page.locator('#deliveries .delivery-attempts').textContent()) === '2';
    }, 'the second attempt shown');
    await checkPage(page, traffic, 'webhook');
    await screenshot(page, 'dashboard-developers-webhook-th-mobile', { docs: true });
    await context.close();
  });

  it('shows keys, webhooks and events in English on a desktop, each event as its JSON', async () => {
    await paidPayment(25_000);
    const context = await owner.browserContext(browser, { desktop: true, locale: 'en-US' });
    for (const [path, name] of [
      ['/dashboard/developers?lang=en', 'dashboard-developers-keys-en-desktop'],
      ['/dashboard/developers/webhooks', 'dashboard-developers-webhooks-en-desktop'],
      ['/dashboard/developers/events?type=payment.succeeded', 'dashboard-developers-events-en-desktop'],
    ] as const) {
      const { page, traffic } = await openPage(context, `${server.url}${path}`);
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      await checkPage(page, traffic, path);
      await screenshot(page, name, { docs: true });
      if (path.includes('events')) {
        const json = JSON.parse((await page.locator('#events pre').first().textContent())!);
        expect(json).toMatchObject({ event: 'payment.succeeded', data: { amount: 25_000, status: 'succeeded' } });
      }
    }
    await context.close();
  });

  it('a viewer downloads a statement and cannot see the keys page (GET and POST answer 403), in Thai and English', async () => {
    const s = server.running.runtime.services;
    await paidPayment(40_000);
    expect(await setTaxDetails(s, owner.merchantId, { taxId: '0994000165510', address: '99 ถนนสุขุมวิท กรุงเทพมหานคร 10110', branch: '00000' })).toBe(true);
    const month = bangkokMonthOf(s.clock.now());
    await issueTaxInvoices(s, month, operatorContext);
    const viewer = await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId, email: 'accountant@example.com' });
    const context = await viewer.browserContext(browser);
    const { page, traffic } = await openPage(context, `${server.url}/dashboard/reports`);
    expect(await page.locator('nav.menu').getByRole('link', { name: 'นักพัฒนา' }).count()).toBe(0);
    expect(await page.locator('#statement tr[data-line="payments"] td').last().textContent()).toBe('฿650.00');
    expect(await page.locator('#tax-invoices li').count()).toBe(1);
    await checkPage(page, traffic, 'reports');
    await screenshot(page, 'dashboard-reports-th-mobile', { docs: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#statement-csv').click()]);
    expect(download.suggestedFilename()).toBe(`statement-${month}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain(`${month},payments,2,65000,650.00,THB`);
    expect(csv.startsWith('\uFEFF')).toBe(true); // a byte-order mark, for Thai in Excel
    expect(csv.slice(1)).toBe((await api.get(`/Thai/v1/reports/statements/${month}?format=csv`)).text);

    const keys = await page.goto(`${server.url}/dashboard/developers`);
    expect(keys!.status()).toBe(403);
    expect(await page.locator('h1').textContent()).toBe('ไม่มีสิทธิ์');
    const token = (await page.locator('input[name="_csrf"]').first().getAttribute('value'))!;
    const keysBefore = (await s.uow.repos.apiKeys.listByMerchant(owner.merchantId)).length;
    const posted = await context.request.post(`${server.url}/dashboard/developers/keys`, {
      form: { _csrf: token, kind: 'unrestricted' },
      headers: { origin: new URL(server.url).origin },
    });
    expect(posted.status()).toBe(403);
    expect((await s.uow.repos.apiKeys.listByMerchant(owner.merchantId)).length).toBe(keysBefore);
    await context.close();

    const english = await viewer.browserContext(browser, { desktop: true, locale: 'en-US' });
    const reports = await openPage(english, `${server.url}/dashboard/reports?lang=en`);
    expect(await reports.page.locator('h1').textContent()).toBe('Reports');
    await checkPage(reports.page, reports.traffic, 'reports en');
    await screenshot(reports.page, 'dashboard-reports-en-desktop', { docs: true });
    await english.close();
  });
});
