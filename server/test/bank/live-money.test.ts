import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { scrape, valueOf } from '../support/metrics.js';

// Where the bank connection meets the rest: the ledger, the events API and /metrics see live money as it lands.
let live: LiveBank;
let shop: ApiClient;
beforeAll(async () => {
  live = await startLiveBank({ env: { METRICS: 'on' } });
  shop = apiClient(live.server.url, await live.server.merchant({ mode: 'live', feeBps: 250 }));
});
afterAll(async () => {
  await live?.stop();
});

const liveQr = async (amount: number) => {
  const res = await shop.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect(res.status).toBe(200);
  return { paymentId: res.body.payment_id as string, qrData: res.body.qr_data as string };
};

describe('money a live QR code collects through the bank', () => {
  it('credits the balance net of fee and VAT, once, and is readable in the events API', async () => {
    const { paymentId, qrData } = await liveQr(15000);
    live.bank.pay({ qr_data: qrData, payer_name: 'SOMSRI DEEJAI', payer_account: '1234567890', sending_bank_code: '004' });
    await live.bank.callbacksSettled();
    expect((await shop.get(`/Thai/v1/payments/${paymentId}`)).body.status).toBe('succeeded');
    // fee = 15000 * 2.5 % = 375; VAT = 7 % of 375 = 26.25 -> 26; net 14599.
    expect((await shop.get('/Thai/v1/balance')).body).toEqual({ available: 14599, pending: 0, currency: 'THB' });
    const ledger = (await shop.get('/Thai/v1/balance/transactions')).body;
    expect(ledger.balance_transactions).toMatchObject([{ type: 'payment', source_id: paymentId, amount: 15000, fee: 375, fee_vat: 26, net: 14599 }]);
    const events = (await shop.get('/Thai/v1/events?type=payment.succeeded')).body.events;
    expect(events.map((e: { data: { payment_id: string } }) => e.data.payment_id)).toEqual([paymentId]);
  });

  it('counts confirmations and unmatched money in /metrics; money paid twice leaves the balance alone', async () => {
    const before = await scrape(`${live.server.url}/metrics`);
    const balanceBefore = (await shop.get('/Thai/v1/balance')).body;
    const { qrData } = await liveQr(20000);
    live.bank.pay({ qr_data: qrData });
    await live.bank.callbacksSettled();
    live.bank.pay({ qr_data: qrData }); // the customer pays the same code again: no pending payment to settle
    await live.bank.callbacksSettled();
    const after = await scrape(`${live.server.url}/metrics`);
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('pqr_bank_confirmations_total', { outcome: 'applied' })).toBe(1);
    expect(moved('pqr_bank_confirmations_total', { outcome: 'unmatched' })).toBe(1);
    expect(moved('pqr_bank_unmatched_transactions_total', { reason: 'payment_not_pending' })).toBe(1);
    expect(moved('pqr_bank_unmatched_amount_satang_total', { reason: 'payment_not_pending' })).toBe(20000);
    // fee 500, VAT 35: the first payment only.
    expect((await shop.get('/Thai/v1/balance')).body.available).toBe(balanceBefore.available + 19465);
  });
});
