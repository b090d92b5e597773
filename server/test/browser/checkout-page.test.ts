import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jsQRModule from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { bankSettings, scbEnv } from '../support/bank.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { launchBrowser, mobileContext, recordTraffic, screenshot, axeViolations } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// One browser and one server for the whole file: a browser costs seconds to start on a 2-core machine.
const jsQR = jsQRModule.default;

let server: TestServer;
let bank: BankSimulator;
let api: ApiClient;
let browser: Browser;
let shop: Server;
let shopOrigin: string;

beforeAll(async () => {
  bank = await startBankSimulator(bankSettings); // a bank connection, so that a live merchant has a checkout page too
  server = await startTestServer({ env: scbEnv(bank, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }) });
  const { apiKey } = await server.merchant({ name: 'ร้านกาแฟบ้านสวน' }); // a Thai name: the heading needs the Thai font too
  api = apiClient(`${server.url}/Thai/v1`, { apiKey });
  // The merchant's own site, where return_url sends the customer.
  shop = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><h1>Thank you</h1>'));
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await server?.stop();
  await bank?.stop();
});

async function newQrCode(extra: Record<string, unknown> = {}) {
  const res = await api.post('/qr-codes', { amount: 150000, currency: 'THB', reference: 'INV-2026-00042', ...extra });
  expect(res.status).toBe(200);
  return res.body as { qr_code_id: string; qr_data: string; checkout_url: string; payment_id: string; return_url: string | null };
}

async function openPage(
  url: string,
  options: { locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<{ page: Page; traffic: ReturnType<typeof recordTraffic> }> {
  const context = await mobileContext(browser, options);
  const page = await context.newPage();
  const traffic = recordTraffic(page);
  await page.goto(url);
  return { page, traffic };
}

const statusText = (page: Page) => page.locator('#status').textContent();

describe('the checkout page in a real browser', { timeout: 60_000 }, () => {
  it('shows the merchant, ฿1,500.00, the reference and a QR image that decodes to qr_data, in Thai, in the served font, from this origin alone', async () => {
    const qr = await newQrCode();
    const { page, traffic } = await openPage(qr.checkout_url);
    await page.evaluate(() => document.fonts.ready);

    expect(await page.getAttribute('html', 'lang')).toBe('th');
    expect(await page.locator('h1').textContent()).toBe('ร้านกาแฟบ้านสวน');
    expect(await page.locator('#amount').textContent()).toBe('฿1,500.00');
    expect(await page.locator('#reference').textContent()).toBe('INV-2026-00042');
    expect(await statusText(page)).toBe('รอการชำระเงิน');
    expect(await page.locator('.thai-qr-title').textContent()).toBe('THAI QR PAYMENT');
    expect(await page.getByRole('img', { name: 'PromptPay' }).count()).toBe(1);
    expect(await page.locator('#countdown').textContent()).toMatch(/^1[45]:\d\d$/);
    expect(await page.getByRole('link', { name: 'บันทึกรูป QR' }).getAttribute('download')).toMatch(/\.png$/);
    // A test merchant's page warns the customer, in Thai and in English, and the warning is on screen.
    const banner = page.locator('#test-mode');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.locator('[lang="th"]').textContent()).toContain('โหมดทดสอบ: ห้ามชำระเงิน');
    expect(await banner.locator('[lang="en"]').textContent()).toContain('Test mode: do not pay');

    // The QR as the customer sees it: a screenshot of the image, decoded.
    const shot = PNG.sync.read(await page.locator('#qr-image').screenshot());
    expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(qr.qr_data);

    // Thai glyphs come from the served Noto Sans Thai, not a fallback (the system has no Thai font: boxes).
    const font = await page.evaluate(() => {
      const loaded: string[] = [];
      document.fonts.forEach((face) => {
        if (face.status === 'loaded') loaded.push(face.family.replace(/"/g, ''));
      });
      return {
        loaded,
        thai: document.fonts.check('16px "Noto Sans Thai"', 'รอการชำระเงิน'),
        used: getComputedStyle(document.getElementById('status')!).fontFamily,
      };
    });
    expect(font.loaded).toContain('Noto Sans Thai');
    expect(font.thai).toBe(true);
    expect(font.used).toMatch(/^"?Noto Sans Thai/);

    const origin = new URL(server.url).origin;
    expect(traffic.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(traffic.requests.some((url) => url.includes('noto-sans-thai-thai-400-normal.woff2'))).toBe(true);
    expect(traffic.errors).toEqual([]); // no CSP refusal, no script error

    const violations = await axeViolations(page);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await screenshot(page, 'checkout-th-pending-mobile');
    await page.context().close();
  });

  it('turns to succeeded without a reload when the payment completes, then sends the customer to return_url', async () => {
    const qr = await newQrCode({ return_url: `${shopOrigin}/orders/42/paid?from=checkout` });
    const { page } = await openPage(qr.checkout_url);
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });

    expect((await api.post(`/test/payments/${qr.payment_id}/succeed`)).status).toBe(200);
    await page.locator('#status.status-succeeded').waitFor();
    expect(await statusText(page)).toContain('ชำระเงินสำเร็จ');
    expect(await page.locator('#qr').isHidden()).toBe(true);
    expect(navigations).toBe(0); // live, not reloaded
    await screenshot(page, 'checkout-th-succeeded-mobile');

    const started = Date.now();
    await page.waitForURL(`${shopOrigin}/**`, { timeout: 10_000 });
    expect(Date.now() - started).toBeGreaterThan(1_500); // the customer reads the message first (3 s)
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/orders/42/paid');
    expect(Object.fromEntries(landed.searchParams)).toEqual({ from: 'checkout', payment_id: qr.payment_id, status: 'succeeded' });
    await page.context().close();
  });

  it('shows the failed and the expired states, each with its own message and no QR', async () => {
    for (const [outcome, message] of [
      ['fail', 'การชำระเงินไม่สำเร็จ'],
      ['expire', 'QR นี้หมดอายุแล้ว'],
    ] as const) {
      const qr = await newQrCode();
      const { page } = await openPage(qr.checkout_url);
      await page.locator('#status.status-pending').waitFor();
      expect((await api.post(`/test/payments/${qr.payment_id}/${outcome}`)).status).toBe(200);
      await page.locator(`#status.status-${outcome === 'fail' ? 'failed' : 'expired'}`).waitFor();
      expect(await statusText(page)).toContain(message);
      expect(await page.locator('#qr').isHidden()).toBe(true);
      await screenshot(page, `checkout-th-${outcome === 'fail' ? 'failed' : 'expired'}-mobile`);
      await page.context().close();
    }
  });

  it('falls back to polling the status when the event stream is refused', async () => {
    const qr = await newQrCode();
    const context = await mobileContext(browser);
    await context.route('**/events', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'busy' }));
    const page = await context.newPage();
    const traffic = recordTraffic(page);
    // The first poll is answered before the payment succeeds, so only a later poll can bring the news.
    const firstPoll = page.waitForResponse((response) => response.url().endsWith('/status'));
    await page.goto(qr.checkout_url);
    expect(await (await firstPoll).json()).toMatchObject({ status: 'pending' });
    expect((await api.post(`/test/payments/${qr.payment_id}/succeed`)).status).toBe(200);
    await page.locator('#status.status-succeeded').waitFor();
    expect(traffic.requests.filter((url) => url.endsWith('/status')).length).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('speaks English with ?lang=en and to an English browser', async () => {
    const qr = await newQrCode();
    const { page } = await openPage(`${qr.checkout_url}?lang=en`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await statusText(page)).toBe('Waiting for payment');
    expect(await page.getByRole('link', { name: 'Save QR image' }).count()).toBe(1);
    await screenshot(page, 'checkout-en-pending-mobile');
    await page.context().close();

    const english = await openPage(qr.checkout_url, { locale: 'en-US' });
    expect(await english.page.getAttribute('html', 'lang')).toBe('en');
    await english.page.context().close();
  });

  it('works before (and without) its script: everything is in the server-rendered HTML', async () => {
    const qr = await newQrCode();
    const { page, traffic } = await openPage(qr.checkout_url, { javaScriptEnabled: false });
    expect(await page.locator('#amount').textContent()).toBe('฿1,500.00');
    expect(await statusText(page)).toBe('รอการชำระเงิน');
    expect(await page.locator('#qr-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(traffic.requests.some((url) => url.endsWith('checkout.js'))).toBe(false);
    await page.context().close();
  });

  it("carries no test-mode banner on a live merchant's page", async () => {
    const live = apiClient(`${server.url}/Thai/v1`, await server.merchant({ mode: 'live', name: 'Live Shop' }));
    const created = await live.post('/qr-codes', { amount: 150000, currency: 'THB' });
    expect(created.status, created.text).toBe(200);
    const { page } = await openPage(created.body.checkout_url);
    expect(await page.locator('h1').textContent()).toBe('Live Shop');
    expect(await page.locator('#test-mode').count()).toBe(0);
    expect(await page.getByText('Test mode').count()).toBe(0);
    await page.context().close();
  });

  it('answers an unknown id with a 404 page', async () => {
    const context = await mobileContext(browser);
    const page = await context.newPage();
    const response = await page.goto(`${server.url}/Thai/pay/qr_00000000000000000000000000000000`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('ไม่พบหน้าชำระเงินนี้');
    await context.close();
  });
});
