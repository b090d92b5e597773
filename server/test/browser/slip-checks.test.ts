import { describe, expect, it } from 'vitest';
import { expectSoundPage, recordTraffic, screenshot, usingBrowser } from '../support/browser.js';
import { dashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server, merchant, api } = usingTestServer({ merchant: { name: 'ร้านกาแฟริมทาง' } });
const browser = usingBrowser();

describe('Check a slip on Receive, in a phone’s browser', { timeout: 180_000 }, () => {
  it('a cashier uploads the PNG of a paid payment’s slip and sees it verified, with its amount', async () => {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 8950, currency: 'THB' });
    expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`, {})).status).toBe(200);
    const slip = await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/slip`);
    expect(slip.status, slip.text).toBe(200);
    const cashier = await dashboardMember(server, { role: 'cashier', merchantId: merchant.id });
    const context = await cashier.browserContext(browser);
    try {
      const page = await context.newPage();
      const traffic = recordTraffic(page);
      await page.goto(`${server.url}/dashboard/receive`);
      await expectSoundPage(page, traffic, 'Receive with Check a slip', { origin: server.url });
      await page.setInputFiles('#slip-file', { name: 'slip.png', mimeType: 'image/png', buffer: Buffer.from(slip.body.image, 'base64') });
      await Promise.all([page.waitForURL(`${server.url}/dashboard/slips`), page.click('#check-slip')]);
      const verdict = page.locator('#slip-verdict');
      await expect(verdict.getAttribute('data-status')).resolves.toBe('verified');
      expect(await page.locator('#verdict-title').textContent()).toBe('สลิปถูกต้อง');
      expect(await page.locator('#slip-amount').textContent()).toBe('฿89.50');
      await screenshot(page, 'slip-verified-390', { docs: true });
      await expectSoundPage(page, traffic, 'a verified slip', { origin: server.url });

      // The same slip again, by the same form on the verdict's page: used before.
      await page.setInputFiles('#slip-file', { name: 'slip.png', mimeType: 'image/png', buffer: Buffer.from(slip.body.image, 'base64') });
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/dashboard/slips') && r.request().method() === 'POST'), page.click('#check-slip')]);
      await page.waitForSelector('#slip-verdict[data-status="duplicate"]');
      expect(await page.locator('#verdict-title').textContent()).toBe('สลิปนี้ถูกใช้แล้ว');
    } finally {
      await context.close();
    }
  });
});
