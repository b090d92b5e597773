import { roles } from '../../src/domain/permissions.js';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { mobileContext, recordTraffic, screenshot, usingBrowser } from '../support/browser.js';
import { dashboardMember, type DashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server, merchant, api } = usingTestServer({ merchant: { name: 'ร้านกาแฟบ้านสวน', payoutAccount } });
const browser = usingBrowser();
let owner: DashboardMember;
let reference: { payment_id: string; qr_code_id: string };

beforeAll(async () => {
  owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
  await paid(api, 250_000);
  const created = await api.post('/Thai/v1/qr-codes', { amount: 129_900, currency: 'THB', reference: 'โต๊ะ 7' });
  expect(created.status, created.text).toBe(200);
  reference = created.body;
  expect((await api.post(`/Thai/v1/test/payments/${reference.payment_id}/succeed`)).status).toBe(200);
  const preview = await owner.client.post('/dashboard/balance/withdraw', { amount: '100' });
  const key = /name="key" value="([^"]+)"/.exec(preview.text)![1]!;
  expect((await owner.client.post('/dashboard/balance/withdraw/confirm', { amount: '10000', key })).status).toBe(303);
});

async function open(path: string, options: { desktop?: boolean; lang?: 'th' | 'en' } = {}): Promise<{ page: Page; context: BrowserContext }> {
  const context = await owner.browserContext(browser, { desktop: options.desktop });
  const page = await context.newPage();
  await page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}lang=${options.lang ?? 'th'}`);
  await page.evaluate(() => document.fonts.ready);
  return { page, context };
}

const THAI_MONTH = '(?:ม\\.ค\\.|ก\\.พ\\.|มี\\.ค\\.|เม\\.ย\\.|พ\\.ค\\.|มิ\\.ย\\.|ก\\.ค\\.|ส\\.ค\\.|ก\\.ย\\.|ต\\.ค\\.|พ\\.ย\\.|ธ\\.ค\\.)';
// This year in Bangkok, in the Buddhist era: the year every list of this run must show.
const BE_YEAR = Number(new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 4)) + 543;
const THAI_DATE = new RegExp(`^\\d{1,2} ${THAI_MONTH} ${BE_YEAR}( \\d\\d:\\d\\d)?$`);
const BAHT = /^-?฿\d{1,3}(,\d{3})*\.\d\d$/;

/** The cells of a list as a person reads them (the chart's figures too, folded away under the chart). */
const cellsOf = (page: Page, selector: string) => page.locator(`${selector} td, ${selector} th[scope="row"]`).allTextContents();

/**
 * Whether Thai in the (first with Thai) element is drawn with a Thai font: the width of its Thai letters in the element's own style
 * against their width in the page's body font (Noto Sans Thai) at the same size and weight. Boxes (a font without
 * Thai) measure differently. `family` tries another font stack in the element's place: the control.
 */
async function thaiWidths(page: Page, selector: string, family?: string): Promise<{ own: number; body: number; thai: string }> {
  return page.evaluate(
    async ([selector, family]) => {
      const isThai = (c: string) => /[\u0E00-\u0E7F]/.test(c);
      const element =
        Array.from(document.querySelectorAll(selector!)).find((e) => [...(e.textContent ?? '')].some(isThai)) ?? document.querySelector(selector!)!;
      const thai = [...(element.textContent ?? '')].filter(isThai).join('');
      const probe = (parent: Element, style: (span: HTMLSpanElement) => void) => {
        const span = document.createElement('span');
        span.textContent = thai;
        style(span);
        parent.append(span);
        return span;
      };
      const own = probe(element, (span) => {
        if (family) span.style.fontFamily = family;
      });
      const computed = getComputedStyle(element);
      const body = probe(document.body, (span) => {
        span.style.fontFamily = getComputedStyle(document.body).fontFamily;
        span.style.fontSize = computed.fontSize;
        span.style.fontWeight = computed.fontWeight;
        span.style.letterSpacing = computed.letterSpacing;
      });
      await document.fonts.ready;
      const widths = { own: own.getBoundingClientRect().width, body: body.getBoundingClientRect().width, thai };
      own.remove();
      body.remove();
      return widths;
    },
    [selector, family],
  );
}

describe('the pages Thai all the way, on a phone', { timeout: 180_000 }, () => {
  it('shows Thai dates of this year in the Buddhist era and amounts in baht in every list', async () => {
    const lists: [string, string[]][] = [
      ['/dashboard', ['#live table.rows', '#chart-figures']],
      ['/dashboard/payments', ['#live table.rows']],
      ['/dashboard/balance', ['#ledger', '#withdrawals']],
      ['/dashboard/audit', ['#audit']],
    ];
    for (const [path, tables] of lists) {
      const { page, context } = await open(path);
      for (const table of tables) {
        const cells = await cellsOf(page, table);
        const dates = cells.filter((cell) => /\d\d:\d\d$| (25|20)\d\d$/.test(cell.trim()) && !cell.includes('฿'));
        const amounts = cells.filter((cell) => cell.includes('฿'));
        expect(dates.length, `${path} ${table}: dates`).toBeGreaterThan(0);
        for (const date of dates) expect(date.trim(), `${path} ${table}`).toMatch(THAI_DATE);
        if (table !== '#audit') expect(amounts.length, `${path} ${table}: amounts`).toBeGreaterThan(0);
        for (const amount of amounts) expect(amount.trim().replace(/^.* (?=-?฿)/, ''), `${path} ${table}`).toMatch(BAHT);
        expect(cells.join(' '), `${path} ${table}`).not.toMatch(/\d{4}-\d\d-\d\d|satang|สตางค์/);
      }
      if (path === '/dashboard/audit') expect((await cellsOf(page, '#audit')).join(' ')).toContain('ขอถอนเงิน ฿100.00');
      await context.close();
    }
  });

  it('answers a refund over the limit with a Thai sentence in baht', async () => {
    const { page, context } = await open(`/dashboard/payments/${reference.payment_id}`);
    expect(await page.locator('h1').textContent()).toBe('การชำระเงิน โต๊ะ 7');
    await page.getByLabel('จำนวนเงินที่คืน (บาท)').fill('2,000');
    await page.getByRole('button', { name: 'คืนเงิน' }).click();
    const alert = page.locator('.error[role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('คืนเงินได้สูงสุด ฿1,299.00');
    await screenshot(page, 'dashboard-refund-refused-th-mobile');
    await context.close();
  });

  it('draws no Thai letter as a box in monospace text: the checkout page, and the events’ JSON in the dashboard', async () => {
    const checkout = await mobileContext(browser);
    const pay = await checkout.newPage();
    await pay.goto(`${server.url}/Thai/pay/${reference.qr_code_id}`);
    await pay.evaluate(() => document.fonts.ready);
    const events = await open('/dashboard/developers/events');
    for (const [page, selector] of [
      [pay, '#reference'],
      [events.page, '#events pre.json'],
    ] as const) {
      expect(
        await page
          .locator(selector)
          .first()
          .evaluate((e) => getComputedStyle(e).fontFamily),
      ).toMatch(/monospace/);
      const { own, body, thai } = await thaiWidths(page, selector);
      expect(thai.length, selector).toBeGreaterThan(0);
      expect(Math.abs(own - body), `${selector}: ${own} against ${body}`).toBeLessThan(0.5);
      // The control: the same letters in the monospace stack without the served font are boxes, of another width.
      const boxes = await thaiWidths(page, selector, 'ui-monospace, monospace');
      expect(Math.abs(boxes.own - boxes.body), `${selector}: boxes`).toBeGreaterThan(1);
    }
    await screenshot(pay, 'checkout-thai-reference-th');
    await Promise.all([checkout.close(), events.context.close()]);
  });

  it('opens a payment by a tap anywhere on its row at 390 px, without sideways scrolling', async () => {
    const { page, context } = await open('/dashboard/payments');
    expect(page.viewportSize()!.width).toBe(390);
    const row = page.locator(`tr[data-payment-id="${reference.payment_id}"]`);
    const scroll = await page.locator('#live .table-scroll').evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(scroll, 'the list scrolls sideways').toBeLessThanOrEqual(0);
    const box = (await row.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await row.locator('.row-link').textContent()).toBe('โต๊ะ 7');
    // A tap (a touch, as a thumb does) on the amount, far from the link; then on the time, at the row's other end.
    const tapOn = async (cell: string) => {
      // The live region may be drawn again just then (its first fetch): measure the cell as it is once found.
      let box: { x: number; y: number; width: number; height: number } | null = null;
      await expect
        .poll(
          async () =>
            (box = await row
              .locator(cell)
              .boundingBox()
              .catch(() => null)),
        )
        .not.toBeNull();
      const { x, y, width, height } = box!;
      await page.touchscreen.tap(x + width / 2, y + height / 2);
      await page.waitForURL(new RegExp(`/dashboard/payments/${reference.payment_id}$`));
    };
    await tapOn('.row-amount');
    await page.goto(`${server.url}/dashboard/payments`);
    await tapOn('.row-when');
    await context.close();
  });

  it('says on the Team page what each role may do, and offers the only owner no remove', async () => {
    const { page, context } = await open('/dashboard/team');
    const traffic = recordTraffic(page);
    expect(await page.locator('#role-explanations [data-role]').count()).toBe(roles.length); // every role of the one table
    expect(await page.locator('#role-explanations [data-role="support"]').innerText()).toContain('คืนเงินให้ลูกค้า');
    expect(await page.locator('#role-explanations [data-role="viewer"]').innerText()).not.toContain('คืนเงินให้ลูกค้า');
    expect(await page.getByRole('button', { name: 'นำออก' }).count()).toBe(0);
    expect(await page.locator('.only-owner').count()).toBe(1);
    await screenshot(page, 'dashboard-team-roles-th-mobile');
    expect(traffic.errors).toEqual([]);
    await context.close();
  });

  it('lets new recovery codes be copied and downloaded as a text file, with no script from elsewhere', async () => {
    const context = await owner.browserContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    const page = await context.newPage();
    const traffic = recordTraffic(page);
    await page.goto(`${server.url}/dashboard/account?lang=en`);
    await page.locator('#recovery-password').fill(owner.password);
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await page.locator('#recovery-codes').waitFor();
    const codes = (await page.locator('#recovery-codes code').allInnerTexts()).map((code) => code.trim());
    expect(codes.length).toBe(10);

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#recovery-download').click()]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const file = readFileSync((await download.path())!, 'utf8');
    for (const code of codes) expect(file).toContain(`\r\n${code}`);
    expect(file).toContain(owner.email);

    await page.locator('#recovery-copy').click();
    await expect.poll(() => page.locator('#recovery-copied').textContent()).toBe('Codes copied');
    expect((await page.evaluate(() => navigator.clipboard.readText())).split('\n')).toEqual(codes);
    expect(traffic.requests.filter((url) => new URL(url).origin !== new URL(server.url).origin)).toEqual([]);
    expect(traffic.errors).toEqual([]);
    await context.close();
  });
});
