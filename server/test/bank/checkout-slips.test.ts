import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { decodeHtml } from '../support/dashboard.js';

let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank();
});
afterAll(async () => {
  await live?.stop();
});

/** A live payment paid at the simulated bank whose confirmation was dropped: its checkout page still shows pending. */
async function stuckPayment(amount = 15000) {
  const qr = (await live.api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' })).body as { payment_id: string; qr_data: string; checkout_url: string };
  live.bank.knobs.dropRate = 1;
  const { slip } = live.bank.pay({ qr_data: qr.qr_data, payer_name: 'SOMSRI DEEJAI' });
  await live.bank.callbacksSettled();
  live.bank.knobs.dropRate = 0;
  return { ...qr, slip };
}

const paymentStatus = async (id: string) => (await live.api.get(`/Thai/v1/payments/${id}`)).body.status as string;
const slipPng = async (payload: string) => QRCode.toBuffer(payload, { type: 'png', width: 300, margin: 8 });
const blankPng = () => {
  const png = new PNG({ width: 120, height: 120 });
  png.data.fill(255);
  return PNG.sync.write(png);
};

/** A customer's browser on one checkout page: its cookie and the form's token, read off the page as a browser would. */
async function customerAt(checkoutUrl: string) {
  const page = await fetch(`${checkoutUrl}?lang=en`);
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const html = await page.text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? null;
  return {
    html,
    token,
    async send(photo: Buffer | null, options: { token?: string | null } = {}) {
      const body = new FormData();
      const sentToken = options.token === undefined ? token : options.token;
      if (sentToken !== null) body.set('_csrf', sentToken);
      if (photo) body.append('image', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'slip.png');
      const res = await fetch(`${checkoutUrl}/slip?lang=en`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' });
      return { status: res.status, location: res.headers.get('location'), text: decodeHtml(await res.text()) };
    },
  };
}
const messageOf = (html: string) => /id="slip-message" role="alert">([^<]*)</.exec(html)?.[1] ?? null;

describe('"I have paid" on the checkout page', () => {
  it('a pending page offers it with its form token; a paid page does not', async () => {
    const stuck = await stuckPayment();
    const customer = await customerAt(stuck.checkout_url);
    expect(customer.token).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(customer.html).toContain('enctype="multipart/form-data"');
    expect(customer.html).toMatch(/<input type="file" id="slip-camera" name="image" accept="image\/\*" capture="environment"/);
    const sent = await customer.send(await slipPng(stuck.slip));
    expect(sent.status).toBe(303);
    expect((await customerAt(stuck.checkout_url)).html).not.toContain('id="slip-form"');
  });

  it('the slip of a stuck payment completes it at once, and the page then shows it paid', async () => {
    const stuck = await stuckPayment(23400);
    expect(await paymentStatus(stuck.payment_id)).toBe('pending');
    const sent = await (await customerAt(stuck.checkout_url)).send(await slipPng(stuck.slip));
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/Thai/pay/${stuck.checkout_url.split('/').at(-1)}?lang=en`);
    expect(await paymentStatus(stuck.payment_id)).toBe('succeeded');
    const page = decodeHtml(await (await fetch(`${stuck.checkout_url}?lang=en`)).text());
    expect(page).toContain('data-status="succeeded"');
    expect(page).toContain('Payment received. Thank you!');
  });

  it('says what a slip that does not pay this payment is, with the tries left; a 6th slip is refused, even a good one', async () => {
    const stuck = await stuckPayment(5000);
    const other = await stuckPayment(5000);
    const customer = await customerAt(stuck.checkout_url);
    const wrong = await customer.send(await slipPng(other.slip));
    expect([wrong.status, messageOf(wrong.text)]).toEqual([200, 'This slip is not a payment of this checkout. 4 tries left.']);
    const unreadable = await customer.send(blankPng());
    expect([unreadable.status, messageOf(unreadable.text)]).toEqual([
      422,
      'No slip QR could be read from this image: take it again with the QR sharp. 3 tries left.',
    ]);
    const nothing = await customer.send(null);
    expect([nothing.status, messageOf(nothing.text)]).toEqual([422, 'Take a photo of the slip, or choose its image.']); // no try taken
    for (const left of [2, 1, 0]) expect(messageOf((await customer.send(blankPng())).text)).toContain(`${left} tries left.`);
    const sixth = await customer.send(await slipPng(stuck.slip));
    expect(sixth.status).toBe(429);
    expect(messageOf(sixth.text)).toBe('You have sent 5 slips for this payment, the most allowed. Please contact the merchant with your slip.');
    expect(await paymentStatus(stuck.payment_id)).toBe('pending');
  });

  it('gives the try back when the bank cannot be asked: six slips sent during an outage leave all five tries', async () => {
    const stuck = await stuckPayment(6000);
    const customer = await customerAt(stuck.checkout_url);
    live.bank.knobs.inquiryDown = true;
    try {
      for (let i = 0; i < 6; i++) {
        const during = await customer.send(await slipPng(stuck.slip));
        expect(during.status).toBe(503);
        expect(messageOf(during.text)).toContain('5 tries left.');
      }
    } finally {
      live.bank.knobs.inquiryDown = false;
    }
    const after = await customer.send(await slipPng(stuck.slip));
    expect(after.status).toBe(303);
    expect(await paymentStatus(stuck.payment_id)).toBe('succeeded');
  });

  it('refuses a form without its token (nothing counted), and counts tries exactly when slips arrive at once', async () => {
    const stuck = await stuckPayment(7000);
    const customer = await customerAt(stuck.checkout_url);
    const forged = await customer.send(blankPng(), { token: 'x'.repeat(43) });
    expect([forged.status, messageOf(forged.text)]).toEqual([403, 'This form has expired: open this page again and send the slip again.']);
    const answers = await Promise.all(Array.from({ length: 8 }, () => customer.send(blankPng())));
    expect(answers.map((a) => a.status).sort()).toEqual([422, 422, 422, 422, 422, 429, 429, 429]);
  });
});
