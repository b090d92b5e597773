import { afterAll, beforeAll, expect, it } from 'vitest';
import { mobileContext, recordTraffic, screenshot, usingBrowser, axeViolations } from '../support/browser.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';

let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank();
});
afterAll(() => live?.stop());
const browser = usingBrowser();

async function liveCheckout(amount: number) {
  const res = await live.api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect(res.status).toBe(200);
  return res.body as { qr_data: string; checkout_url: string };
}

it.each([
  ['the event stream', false, 'th', 'ได้รับเงินโอน ฿250.00 แล้ว แต่ไม่ตรงกับรายการชำระนี้ กรุณาติดต่อร้านค้า และอย่าชำระซ้ำ'],
  [
    'polling, when the stream is refused',
    true,
    'en',
    'A transfer of ฿250.00 was received but does not match this payment. Please contact the merchant, and do not pay again.',
  ],
] as const)(
  'an open page stops saying "waiting for payment" once 250 THB arrives on a 300 THB code (through %s)',
  { timeout: 60_000 },
  async (_how, refuseStream, lang, message) => {
    const qr = await liveCheckout(30000);
    const context = await mobileContext(browser, { locale: lang === 'en' ? 'en-US' : 'th-TH' });
    if (refuseStream) await context.route('**/events', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'busy' }));
    const page = await context.newPage();
    const traffic = recordTraffic(page);
    await page.goto(qr.checkout_url);
    await page.locator('#status.status-pending').waitFor();
    if (refuseStream) await page.waitForRequest((request) => request.url().endsWith('/status'));

    live.bank.pay({ qr_data: qr.qr_data, paid_amount: '250.00' });
    await page.locator('#status.status-unmatched').waitFor();
    expect(await page.locator('#status').textContent()).toBe(message);
    expect(await page.locator('#qr').isHidden()).toBe(true);
    // Only the refused stream may show up as an error: the script itself throws nothing.
    expect(traffic.errors.filter((e) => !(refuseStream && /status of 503/.test(e)))).toEqual([]);
    const violations = await axeViolations(page);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await screenshot(page, `checkout-${lang}-unmatched-mobile`);
    await context.close();
  },
);
