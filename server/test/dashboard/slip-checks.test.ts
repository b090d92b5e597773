import { describe, expect, it } from 'vitest';
import { dashboardMember, decodeHtml } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer();

/** A test merchant with a cashier, and the slip (payload and PNG) of a succeeded test payment of `amount` satang. */
async function shopWithSlip(amount = 15000) {
  const owner = await dashboardMember(server, { role: 'owner' });
  const api = apiClient(server.url, { apiKey: owner.apiKey! });
  const qr = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`, {})).status).toBe(200);
  const slip = await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/slip`);
  expect(slip.status, slip.text).toBe(200);
  return { owner, api, paymentId: qr.body.payment_id as string, payload: slip.body.payload as string, png: Buffer.from(slip.body.image, 'base64') };
}

const verdictOf = (html: string) => /id="slip-verdict" data-status="([a-z_]+)"/.exec(html)?.[1] ?? null;

describe('Check a slip in the dashboard', () => {
  it('Receive and a payment page offer it (camera or file, or the QR text), posting with the form token', async () => {
    const { owner, paymentId } = await shopWithSlip();
    const cashier = await dashboardMember(server, { role: 'cashier', merchantId: owner.merchantId });
    const receive = await cashier.client.get('/dashboard/receive');
    expect(receive.text).toContain('enctype="multipart/form-data"');
    expect(receive.text).toMatch(/<input type="file" id="slip-camera" name="image" accept="image\/\*" capture="environment"/);
    expect(receive.text).toMatch(/name="_csrf" value="[^"]+">\s*<div class="field">\s*<label for="slip-camera">/);
    const payment = await owner.client.get(`/dashboard/payments/${paymentId}`);
    expect(payment.text).toContain(`<input type="hidden" name="payment_id" value="${paymentId}">`);
    const viewer = await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId });
    expect((await viewer.client.get(`/dashboard/payments/${paymentId}`)).text).not.toContain('slip-form');
    expect((await viewer.client.post('/dashboard/slips', { payload: 'x' })).status).toBe(403);
  });

  it('a cashier’s photo of a real slip is verified, large, with the amount in baht and the Bangkok time; shown again it was used before', async () => {
    const { owner, png, paymentId } = await shopWithSlip(15050);
    const cashier = await dashboardMember(server, { role: 'cashier', merchantId: owner.merchantId });
    await cashier.client.get('/dashboard/receive');
    const noFile = { name: 'image', filename: '', bytes: Buffer.alloc(0), type: 'application/octet-stream' };
    const photo = { name: 'image', filename: 'slip.png', bytes: png, type: 'image/png' };
    const verified = await cashier.client.upload('/dashboard/slips', { payload: '' }, [noFile, photo]);
    expect(verified.status, verified.text).toBe(200);
    expect(verdictOf(verified.text)).toBe('verified');
    const page = decodeHtml(verified.text);
    expect(page).toContain('สลิปถูกต้อง');
    expect(page).toContain('<p class="verdict-amount" id="slip-amount">฿150.50</p>');
    expect(page).toMatch(/id="slip-paid-at">\d{1,2} [ก-๙.]+ 25\d\d \d\d:\d\d</);
    expect(page).toContain(paymentId);

    const again = await cashier.client.upload('/dashboard/slips?lang=en', {}, [photo]);
    expect(verdictOf(again.text)).toBe('duplicate');
    expect(decodeHtml(again.text)).toMatch(/Used before[\s\S]*First verified/);
  });

  it('on a payment’s page the QR text pasted is checked against that payment; a slip of another payment is paid to someone else', async () => {
    const first = await shopWithSlip(20000);
    const { paymentId: otherPayment } = await (async () => {
      const qr = await first.api.post('/Thai/v1/qr-codes', { amount: 20000, currency: 'THB' });
      return { paymentId: qr.body.payment_id as string };
    })();
    await first.owner.client.get(`/dashboard/payments/${otherPayment}?lang=en`);
    const wrong = await first.owner.client.post('/dashboard/slips', { payload: first.payload, payment_id: otherPayment });
    expect(verdictOf(wrong.text)).toBe('wrong_receiver');
    expect(decodeHtml(wrong.text)).toContain('Paid to someone else');
    expect(decodeHtml(wrong.text)).toContain(`href="/dashboard/payments/${otherPayment}"`);
    const right = await first.owner.client.post('/dashboard/slips', { payload: first.payload, payment_id: first.paymentId });
    expect(verdictOf(right.text)).toBe('verified');
  });

  it('says what is wrong, in the page’s language, when nothing or no slip is sent, and refuses a form without its token', async () => {
    const { owner } = await shopWithSlip();
    await owner.client.get('/dashboard/receive?lang=en');
    const nothing = await owner.client.post('/dashboard/slips', { payload: ' ' });
    expect(nothing.status).toBe(422);
    expect(decodeHtml(nothing.text)).toContain('Take a photo or choose the slip’s file');
    const notSlip = await owner.client.upload('/dashboard/slips', {}, [
      { name: 'image', filename: 'cat.png', bytes: Buffer.from('not an image'), type: 'image/png' },
    ]);
    expect(notSlip.status).toBe(422);
    expect(decodeHtml(notSlip.text)).toContain('No slip QR could be read from this image');
    const badCrc = await owner.client.post('/dashboard/slips', { payload: '004100060000010103014021912345678901234567895102TH9104ABCD' });
    expect(badCrc.status).toBe(422);
    const tooBig = await owner.client.upload('/dashboard/slips', {}, [
      { name: 'image', filename: 'big.png', bytes: Buffer.alloc(2 * 1024 * 1024 + 1, 1), type: 'image/png' },
    ]);
    expect(tooBig.status).toBe(413);
    expect(decodeHtml(tooBig.text)).toContain('larger than 2 MiB');
    expect((await owner.client.post('/dashboard/slips', { payload: 'x' }, { csrf: null })).status).toBe(403);
  });
});
