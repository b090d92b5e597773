import { beforeAll, describe, expect, it } from 'vitest';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

// 27 Nov 2026 18:15:46 in Bangkok (11:15:46 UTC): the pages write it `27 พ.ย. 2569 18:15` and `27 Nov 2026 18:15`.
const NOW = new Date('2026-11-27T11:15:46Z');
// 27 Nov 01:30 in Bangkok, still 26 Nov in UTC.
const EARLY = new Date('2026-11-26T18:30:00Z');
const clock = manualClock(EARLY);
const { server, merchant, api } = usingTestServer({ clock, merchant: { payoutAccount, name: 'ร้านข้าวมันไก่' } });
let owner: DashboardMember;
let paymentId: string;
let early: string;

beforeAll(async () => {
  early = await paid(api, 5_000);
  clock.set(NOW);
  owner = await dashboardMember(server, { role: 'owner', merchantId: merchant.id });
  const created = await api.post('/Thai/v1/qr-codes', { amount: 129_900, currency: 'THB', reference: 'โต๊ะ 7' });
  expect(created.status, created.text).toBe(200);
  paymentId = created.body.payment_id;
  expect((await api.post(`/Thai/v1/test/payments/${paymentId}/succeed`)).status).toBe(200);
});

/** The page's text as a person reads it: tags out, entities decoded, spaces folded. */
const read = (html: string): string =>
  decodeHtml(html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
const page = async (path: string, lang: 'th' | 'en') => read((await owner.client.get(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`)).text);

describe('the pages in Thai and English, dates in Bangkok and amounts in baht', { timeout: 120_000 }, () => {
  it('writes every date of every list as people there read it, in Bangkok time', async () => {
    const lists = ['/dashboard', '/dashboard/payments', `/dashboard/payments/${paymentId}`, '/dashboard/balance', '/dashboard/audit', '/dashboard/account'];
    for (const path of lists) {
      const th = await page(path, 'th');
      const en = await page(path, 'en');
      expect(th, path).toContain('27 พ.ย. 2569 18:15');
      expect(en, path).toContain('27 Nov 2026 18:15');
      // Nor the old writings: ISO dates, times in UTC.
      for (const text of [th, en]) {
        expect(text, path).not.toMatch(/\b2026-11-2\d \d\d:\d\d/);
        expect(text, path).not.toMatch(/\d\d:\d\d(:\d\d)? UTC/);
      }
    }
    // The Team page: the day each member joined.
    expect(await page('/dashboard/team', 'th')).toContain('เข้าร่วมเมื่อ 27 พ.ย. 2569');
    expect(await page('/dashboard/team', 'en')).toContain('Member since 27 Nov 2026');
  });

  it('dates a payment made at 01:30 in Bangkok on its Bangkok day, not the UTC one before it', async () => {
    expect(await page(`/dashboard/payments/${early}`, 'th')).toContain('27 พ.ย. 2569 01:30');
    expect(await page(`/dashboard/payments/${early}`, 'en')).toContain('27 Nov 2026 01:30');
  });

  it('answers a refund over the limit in the page’s language and in baht, never the API’s satang', async () => {
    for (const [lang, sentence] of [
      ['th', 'คืนเงินได้สูงสุด ฿1,299.00'],
      ['en', 'You can refund at most ฿1,299.00'],
    ] as const) {
      // Asked at the first step (before the confirmation)...
      const asked = await owner.client.post(`/dashboard/payments/${paymentId}/refund?lang=${lang}`, { amount: '1,300', reason: '' });
      expect(asked.status).toBe(422);
      // ...and at the confirmation (the limit may have moved in between: another member refunded).
      const confirmed = await owner.client.post(`/dashboard/payments/${paymentId}/refund/confirm?lang=${lang}`, {
        amount: '130000',
        reason: '',
        key: `over-the-limit-${lang}-000001`,
      });
      expect(confirmed.status).toBe(422);
      for (const answer of [asked, confirmed]) {
        const text = read(answer.text);
        expect(text).toContain(sentence);
        expect(text).not.toMatch(/satang|129900/);
      }
    }
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body.refunded_amount).toBe(0);
  });

  it('names a payment by its reference in titles and confirmations', async () => {
    expect(decodeHtml((await owner.client.get(`/dashboard/payments/${paymentId}?lang=th`)).text)).toContain('<title>การชำระเงิน โต๊ะ 7 ·');
    const preview = read((await owner.client.post(`/dashboard/payments/${paymentId}/refund?lang=en`, { amount: '93.80', reason: '' })).text);
    expect(preview).toContain('Refund ฿93.80 of payment โต๊ะ 7?');
    expect(preview).not.toContain(`payment ${paymentId}`);
  });

  it('reads the audit log as sentences in baht', async () => {
    const refunded = await paid(api, 20_000);
    const preview = await owner.client.post(`/dashboard/payments/${refunded}/refund`, { amount: '93.80', reason: '' });
    const key = /name="key" value="([^"]+)"/.exec(preview.text)![1]!;
    expect((await owner.client.post(`/dashboard/payments/${refunded}/refund/confirm`, { amount: '9380', reason: '', key })).status).toBe(303);
    const en = await page('/dashboard/audit', 'en');
    const th = await page('/dashboard/audit', 'th');
    expect(en).toContain('Refund of ฿93.80 created');
    expect(th).toContain('สร้างการคืนเงิน ฿93.80');
    expect(en).toContain('Test helper: payment marked succeeded');
    expect(th).toContain('ตัวช่วยทดสอบ: ทำให้รายการสำเร็จ');
    expect(en).toContain('invited as Owner');
    for (const text of [en, th]) expect(text).not.toMatch(/refund_created|amount=\d/);
  });
});
