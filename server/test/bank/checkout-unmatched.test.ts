import { afterAll, beforeAll, expect, it } from 'vitest';
import { unmatchedMoneyOfPayment } from '../../src/app/unmatched-money.js';
import { eventually } from '../support/receiver.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { manualClock } from '../support/test-server.js';

const clock = manualClock();
let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank({ clock, simulator: { now: () => clock.now() } });
});
afterAll(async () => {
  await live?.stop();
});

async function liveCheckout(amount: number, expiryMinutes = 15) {
  const res = await live.api.post('/Thai/v1/qr-codes', { amount, currency: 'THB', expiry_minutes: expiryMinutes });
  expect(res.status).toBe(200);
  return res.body as { qr_code_id: string; payment_id: string; qr_data: string; checkout_url: string; expires_at: string };
}

/** What the customer reads in the status line, and whether the QR code is still offered, as the server rendered them. */
async function pageOf(checkoutUrl: string, lang: 'th' | 'en') {
  const html = await (await fetch(`${checkoutUrl}?lang=${lang}`)).text();
  const status = /<p class="status status-(\w+)" id="status"[^>]*>([^<]*)<\/p>/.exec(html);
  return { statusClass: status?.[1], statusText: status?.[2], qrShown: !/<section class="thai-qr" id="qr"[^>]* hidden>/.test(html) };
}

/** A checkout status stream as the page's EventSource reads it. */
async function openStream(url: string) {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const states: Record<string, unknown>[] = [];
  let buffer = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (data) states.push(JSON.parse(data[1]!));
      }
    }
  })();
  await eventually(() => states.length > 0, 'the first status');
  return { states, close: () => reader.cancel() };
}

it('a customer who pays 250 THB on a 300 THB code is told it does not match, never "waiting for payment", in Thai and English', async () => {
  const qr = await liveCheckout(30000);
  expect(await pageOf(qr.checkout_url, 'th')).toMatchObject({ statusClass: 'pending', statusText: 'รอการชำระเงิน', qrShown: true });
  const stream = await openStream(`${qr.checkout_url}/events`);
  try {
    live.bank.pay({ qr_data: qr.qr_data, paid_amount: '250.00' });
    await live.bank.callbacksSettled();

    // An open page hears of it at once, through its status stream ...
    await eventually(() => stream.states.length > 1, 'a second status on the stream');
    expect(stream.states.at(-1)).toEqual({ status: 'pending', expires_at: qr.expires_at, unmatched_amounts: [25000] });
    // ... and through the polling fallback.
    expect(await (await fetch(`${qr.checkout_url}/status`)).json()).toEqual({ status: 'pending', expires_at: qr.expires_at, unmatched_amounts: [25000] });
  } finally {
    await stream.close();
  }
  expect(await pageOf(qr.checkout_url, 'th')).toEqual({
    statusClass: 'unmatched',
    statusText: 'ได้รับเงินโอน ฿250.00 แล้ว แต่ไม่ตรงกับรายการชำระนี้ กรุณาติดต่อร้านค้า และอย่าชำระซ้ำ',
    qrShown: false,
  });
  expect(await pageOf(qr.checkout_url, 'en')).toEqual({
    statusClass: 'unmatched',
    statusText: 'A transfer of ฿250.00 was received but does not match this payment. Please contact the merchant, and do not pay again.',
    qrShown: false,
  });
  // The payment itself is unchanged, and the merchant's side can list what came in (for the dashboard).
  expect((await live.api.get(`/Thai/v1/payments/${qr.payment_id}`)).body.status).toBe('pending');
  const services = live.server.running.runtime.services;
  const { merchantId } = (await services.uow.repos.qrCodes.findById(qr.qr_code_id))!;
  expect(await unmatchedMoneyOfPayment(services, merchantId, qr.payment_id)).toMatchObject([
    { id: expect.stringMatching(/^btx_/), amount: '250.00', reason: 'amount_mismatch', paymentId: qr.payment_id },
  ]);
  await expect(unmatchedMoneyOfPayment(services, 'mch_someone_else', qr.payment_id)).rejects.toMatchObject({ code: 'payment_not_found' });
});

it('money paid after expiry shows the same message instead of "expired"', async () => {
  const qr = await liveCheckout(15000, 1);
  clock.advance(2 * 60_000);
  live.bank.pay({ qr_data: qr.qr_data });
  await live.bank.callbacksSettled();
  expect(await pageOf(qr.checkout_url, 'en')).toMatchObject({
    statusClass: 'unmatched',
    statusText: expect.stringContaining('A transfer of ฿150.00 was received but does not match'),
    qrShown: false,
  });
  expect(await (await fetch(`${qr.checkout_url}/status`)).json()).toEqual({ status: 'expired', expires_at: qr.expires_at, unmatched_amounts: [15000] });
});

it('a second transfer on a paid code is named beside "paid"', async () => {
  const qr = await liveCheckout(15000);
  live.bank.pay({ qr_data: qr.qr_data });
  live.bank.pay({ qr_data: qr.qr_data });
  await live.bank.callbacksSettled();
  expect(await pageOf(qr.checkout_url, 'en')).toEqual({
    statusClass: 'unmatched',
    statusText:
      'Payment received. Thank you! A transfer of ฿150.00 was received but does not match this payment. Please contact the merchant, and do not pay again.',
    qrShown: false,
  });
});
