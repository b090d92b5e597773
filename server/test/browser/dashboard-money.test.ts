import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { recordTraffic, screenshot, usingBrowser, axeViolations } from '../support/browser.js';
import { dashboardMember, type DashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server, merchant, api } = usingTestServer({ merchant: { name: 'ร้านกาแฟบ้านสวน', payoutAccount } });
const browser = usingBrowser();
let owner: DashboardMember;
let viewer: DashboardMember;

beforeAll(async () => {
  owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
  viewer = await dashboardMember(server, { role: 'viewer', merchantId: merchant.id });
  await paid(api, 250_000);
});

interface OpenPage {
  page: Page;
  context: BrowserContext;
  traffic: ReturnType<typeof recordTraffic>;
}

async function open(member: DashboardMember, path: string, options: { desktop?: boolean; locale?: string } = {}): Promise<OpenPage> {
  const context = await member.browserContext(browser, options);
  const page = await context.newPage();
  const traffic = recordTraffic(page);
  await page.goto(`${server.url}${path}`);
  return { page, context, traffic };
}

/** What every page must be: no sideways scroll at its width, no serious axe finding, nothing from another origin, no script error. */
async function expectSound({ page, traffic }: OpenPage, label: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${label}: sideways scroll`).toBeLessThanOrEqual(0);
  const violations = await axeViolations(page);
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target).join(' ')}`),
    label,
  ).toEqual([]);
  const origin = new URL(server.url).origin;
  expect(
    traffic.requests.filter((url) => new URL(url).origin !== origin),
    label,
  ).toEqual([]);
  expect(traffic.errors, label).toEqual([]);
}

const qrCode = async (extra: Record<string, unknown> = {}) => {
  const res = await api.post('/Thai/v1/qr-codes', { amount: 42_000, currency: 'THB', ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body as { payment_id: string; qr_code_id: string };
};

describe('the money pages in a real browser', { timeout: 120_000 }, () => {
  it('shows a payment completed through the API on Home and in Payments without a reload', async () => {
    const home = await open(owner, '/dashboard');
    const list = await open(owner, '/dashboard/payments');
    let reloads = 0;
    for (const { page } of [home, list])
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) reloads++;
      });
    await home.page.locator('#available').waitFor();
    const todayBefore = await home.page.locator('#today .figure-count').textContent();

    const { payment_id } = await qrCode({ reference: 'LIVE-0001' });
    expect((await api.post(`/Thai/v1/test/payments/${payment_id}/succeed`)).status).toBe(200);
    for (const { page } of [home, list]) await page.locator(`tr[data-payment-id="${payment_id}"] .status-succeeded`).waitFor();
    expect(await home.page.locator('#today .figure-count').textContent()).not.toBe(todayBefore);
    expect(reloads).toBe(0);
    await expectSound(home, 'home th phone');
    await expectSound(list, 'payments th phone');
    await screenshot(home.page, 'dashboard-home-th-mobile', { docs: true });
    await screenshot(list.page, 'dashboard-payments-th-mobile', { docs: true });
    await Promise.all([home.context.close(), list.context.close()]);
  });

  it('finds a payment by its reference', async () => {
    const { payment_id } = await qrCode({ reference: 'FIND-ME-2026' });
    const { page, context } = await open(owner, '/dashboard/payments');
    await page.getByLabel('ค้นหา').fill('FIND-ME-2026');
    await page.getByRole('button', { name: 'แสดงรายการ' }).click();
    await page.waitForURL(/q=FIND-ME-2026/);
    const rows = page.locator('tr[data-payment-id]');
    expect(await rows.count()).toBe(1);
    expect(await rows.getAttribute('data-payment-id')).toBe(payment_id);
    await context.close();
  });

  it('refunds part of a payment after the confirmation step; a double click refunds once, and the API shows the refund', async () => {
    const paymentId = await paid(api, 80_000);
    const payment = await open(owner, `/dashboard/payments/${paymentId}`);
    const { page } = payment;
    await page.getByLabel('จำนวนเงินที่คืน (บาท)').fill('100.50');
    await page.getByLabel('เหตุผล').fill('ลูกค้าได้รับสินค้าไม่ครบ');
    await page.getByRole('button', { name: 'คืนเงิน' }).click();
    await page.locator('#confirm-question').waitFor();
    expect(await page.locator('#confirm-question').textContent()).toContain('฿100.50');
    await expectSound(payment, 'refund confirmation');
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body.refunded_amount).toBe(0); // not before the confirmation
    await page.locator('#confirm-button').dblclick();
    await page.waitForURL(/refunded=rfd_/);
    await page.locator('#timeline .timeline-refund').first().waitFor();
    const after = (await api.get(`/Thai/v1/payments/${paymentId}`)).body;
    expect(after).toMatchObject({ status: 'succeeded', refunded_amount: 10_050 });
    const refundId = new URL(page.url()).searchParams.get('refunded')!;
    expect((await api.get(`/Thai/v1/refunds/${refundId}`)).body).toMatchObject({ amount: 10_050, reason: 'ลูกค้าได้รับสินค้าไม่ครบ' });
    expect(await page.locator('#timeline .timeline-refund').count()).toBe(1);
    await expectSound(payment, 'payment page after a refund');
    await payment.context.close();
  });

  it('withdraws to the payout account shown', async () => {
    const balance = await open(owner, '/dashboard/balance');
    const { page } = balance;
    expect(await page.locator('#payout-account').textContent()).toBe('SCB ····7890 Noodle Shop Co., Ltd.');
    await page.getByLabel('จำนวนเงิน (บาท)').fill('1,000');
    await page.getByRole('button', { name: 'ถอนเงิน' }).click();
    expect(await page.locator('#confirm-question').textContent()).toContain('฿1,000.00');
    await page.locator('#confirm-button').click();
    await page.waitForURL(/withdrawn=wd/);
    const withdrawalId = new URL(page.url()).searchParams.get('withdrawn')!;
    expect(await page.locator('#withdrawals').textContent()).toContain(withdrawalId);
    expect((await api.get(`/Thai/v1/withdrawals/${withdrawalId}`)).body).toMatchObject({ amount: 100_000 });
    await expectSound(balance, 'balance th');
    await balance.context.close();
  });

  it('shows a viewer no Refund button, and answers their forged refund POST (with a valid CSRF token) 403, changing nothing', async () => {
    const paymentId = await paid(api, 20_000);
    const { page, context } = await open(viewer, `/dashboard/payments/${paymentId}`);
    expect(await page.getByRole('button', { name: 'คืนเงิน' }).count()).toBe(0);
    expect(await page.locator('#refund-form').count()).toBe(0);
    const forged = await page.request.post(`${server.url}/dashboard/payments/${paymentId}/refund/confirm`, {
      form: { _csrf: viewer.csrfToken, amount: '20000', reason: 'forged', key: 'forged-by-a-viewer-01' },
      headers: { origin: new URL(server.url).origin },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    await context.close();
  });

  it.each([
    ['th', false],
    ['th', true],
    ['en', false],
    ['en', true],
  ] as const)('keeps every page sound in %s (desktop: %s), at 390 px or 1280 px', async (locale, desktop) => {
    const { payment_id } = await qrCode({ reference: 'PENDING-QR', metadata: { order_id: 'A-17' } });
    const paidId = await paid(api, 33_300);
    const pages = [
      '/dashboard',
      '/dashboard/payments',
      `/dashboard/payments/${payment_id}`,
      `/dashboard/payments/${paidId}`,
      '/dashboard/balance',
      '/dashboard/audit',
    ];
    for (const path of pages) {
      const opened = await open(owner, `${path}${path.includes('?') ? '&' : '?'}lang=${locale}`, { desktop });
      expect(await opened.page.getAttribute('html', 'lang')).toBe(locale);
      await expectSound(opened, `${path} ${locale} ${desktop ? 'desktop' : 'phone'}`);
      if (path === '/dashboard' || path === '/dashboard/payments') {
        const name = path === '/dashboard' ? 'home' : 'payments';
        if (!(locale === 'th' && !desktop)) await screenshot(opened.page, `dashboard-${name}-${locale}-${desktop ? 'desktop' : 'mobile'}`, { docs: true });
      }
      await opened.context.close();
    }
  });
});
