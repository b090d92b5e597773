import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { mobileContext, recordTraffic, screenshot, usingBrowser, axeViolations } from '../support/browser.js';

const browser = usingBrowser();
let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank();
});
afterAll(async () => {
  await live?.stop();
});

/** A live payment paid at the simulated bank whose confirmation was dropped: its page stays pending. */
async function stuckPayment(amount: number) {
  const qr = (await live.api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' })).body as { payment_id: string; qr_data: string; checkout_url: string };
  live.bank.knobs.dropRate = 1;
  const { slip } = live.bank.pay({ qr_data: qr.qr_data, payer_name: 'SOMSRI DEEJAI' });
  await live.bank.callbacksSettled();
  live.bank.knobs.dropRate = 0;
  return { ...qr, slipPng: await QRCode.toBuffer(slip, { type: 'png', width: 300, margin: 8 }) };
}

const blankPng = () => {
  const png = new PNG({ width: 120, height: 120 });
  png.data.fill(255);
  return PNG.sync.write(png);
};

describe('"I have paid" on a phone', { timeout: 180_000 }, () => {
  it('a stuck payment completes after its slip is uploaded; a 6th slip is refused with a clear message', async () => {
    const context = await mobileContext(browser);
    try {
      const stuck = await stuckPayment(32500);
      const page = await context.newPage();
      const traffic = recordTraffic(page);
      await page.goto(stuck.checkout_url);
      expect(await page.getAttribute('#checkout', 'data-status')).toBe('pending');
      await page.click('#slip summary');
      await page.setInputFiles('#slip-file', { name: 'slip.png', mimeType: 'image/png', buffer: stuck.slipPng });
      await screenshot(page, 'checkout-slip-390', { docs: true });
      await page.click('#send-slip');
      await page.waitForSelector('#checkout[data-status="succeeded"]');
      expect(await page.textContent('#status')).toBe('ชำระเงินสำเร็จ ขอบคุณค่ะ');
      expect(await page.isHidden('#slip')).toBe(true);
      expect((await live.api.get(`/Thai/v1/payments/${stuck.payment_id}`)).body.status).toBe('succeeded');
      expect(traffic.errors).toEqual([]);

      const other = await stuckPayment(4000);
      await page.goto(`${other.checkout_url}?lang=en`);
      for (let i = 1; i <= 5; i++) {
        if (!(await page.locator('#slip').evaluate((details) => (details as HTMLDetailsElement).open))) await page.click('#slip summary'); // a refusal comes back open
        await page.setInputFiles('#slip-file', { name: `photo-${i}.png`, mimeType: 'image/png', buffer: blankPng() });
        await Promise.all([page.waitForResponse((r) => r.url().includes('/slip') && r.request().method() === 'POST'), page.click('#send-slip')]);
        expect(await page.textContent('#slip-message')).toContain(`${5 - i} tries left.`);
      }
      await page.setInputFiles('#slip-file', { name: 'slip.png', mimeType: 'image/png', buffer: other.slipPng });
      await Promise.all([page.waitForResponse((r) => r.url().includes('/slip') && r.status() === 429), page.click('#send-slip')]);
      expect(await page.textContent('#slip-message')).toBe(
        'You have sent 5 slips for this payment, the most allowed. Please contact the merchant with your slip.',
      );
      expect(await page.getAttribute('#checkout', 'data-status')).toBe('pending');
      const violations = await axeViolations(page);
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
