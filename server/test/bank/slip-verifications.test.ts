import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import { slipVerify } from 'promptparse/generate';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';

let live: LiveBank;
let other: ApiClient;
let otherId: string;
beforeAll(async () => {
  live = await startLiveBank();
  const merchant = await live.server.merchant({ mode: 'live', name: 'Another shop' });
  otherId = merchant.id;
  other = apiClient(live.server.url, merchant);
});
afterAll(async () => {
  await live?.stop();
});

const verify = (body: Record<string, unknown>, api: ApiClient = live.api) => api.post('/Thai/v1/slip-verifications', body);
const paymentOf = async (id: string, api: ApiClient = live.api) => (await api.get(`/Thai/v1/payments/${id}`)).body;
const knex = () => live.server.running.runtime.db.knex;
const slipRows = async (transRef: string) => knex()('slip_verifications').where({ trans_ref: transRef });

/** A live payment of `api`'s merchant paid at the simulated bank; its callback dropped unless `callback`. */
async function paid(amount = 15000, { api = live.api, callback = false } = {}) {
  live.bank.knobs.dropRate = callback ? 0 : 1;
  const res = await api.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  const { transaction, slip } = live.bank.pay({ qr_data: res.body.qr_data, payer_name: 'SOMSRI DEEJAI', payer_account: '1234567890' });
  await live.bank.callbacksSettled();
  live.bank.knobs.dropRate = 0;
  return { paymentId: res.body.payment_id as string, ref1: transaction.billPaymentRef1, transaction, slip };
}

/** A PNG the test draws: the slip QR on a white page, as a phone's screenshot of a slip. */
async function slipPng(payload: string): Promise<string> {
  return (await QRCode.toBuffer(payload, { type: 'png', width: 300, margin: 8 })).toString('base64');
}

describe('a slip of a live payment', () => {
  it('verifies, and completes the pending payment whose callback was dropped at once, as reconciliation would', async () => {
    const { paymentId, slip, transaction } = await paid(15000);
    expect((await paymentOf(paymentId)).status).toBe('pending');

    const res = await verify({ payload: slip, payment_id: paymentId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'verified',
      trans_ref: transaction.transactionId,
      sending_bank: '004',
      amount: 15000,
      paid_at: `${new Date(transaction.transactionDateandTime).toISOString().slice(0, 19)}.000Z`, // the slip API's time is to the second
      payment_id: paymentId,
      first_verified_at: res.body.created_at,
    });
    expect(res.body.slip_verification_id).toMatch(/^slv_/);
    expect(await paymentOf(paymentId)).toMatchObject({ status: 'succeeded', client_bank_account: '1234567890' });
    expect(await knex()('bank_transactions').where({ bank_transaction_id: transaction.transactionId })).toHaveLength(1);
    const events = (await live.api.get('/Thai/v1/events?limit=100')).body.events.filter(
      (e: { data: { payment_id?: string }; event: string }) => e.data.payment_id === paymentId && e.event === 'payment.succeeded',
    );
    expect(events).toHaveLength(1);
    expect((await live.api.get(`/Thai/v1/slip-verifications/${res.body.slip_verification_id}`)).body).toEqual(res.body);

    const again = await verify({ payload: slip });
    expect(again.body).toMatchObject({ status: 'duplicate', payment_id: paymentId, first_verified_at: res.body.created_at });
  });

  it('shown again, by this merchant or another, is a duplicate that says when it was first verified', async () => {
    const { paymentId, slip } = await paid(20000, { callback: true });
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
    const first = await verify({ payload: slip });
    expect(first.body.status).toBe('verified');
    const fromOther = await verify({ payload: slip }, other);
    expect(fromOther.body).toMatchObject({ status: 'duplicate', payment_id: null, first_verified_at: first.body.created_at });
    expect(JSON.stringify(fromOther.body)).not.toContain(paymentId);
    expect((await verify({ payload: slip })).body.status).toBe('duplicate');
  });

  it("of another merchant's payment is wrong_receiver and reveals nothing of that merchant; that merchant can still verify it", async () => {
    const { paymentId, ref1, slip } = await paid(30000, { api: other, callback: true });
    const res = await verify({ payload: slip });
    expect(res.body).toMatchObject({ status: 'wrong_receiver', payment_id: null });
    for (const secret of [paymentId, ref1, otherId, 'Another shop']) expect(res.text).not.toContain(secret);
    expect((await verify({ payload: slip }, other)).body).toMatchObject({ status: 'verified', payment_id: paymentId });
  });

  it('that the bank does not know is not_found', async () => {
    const res = await verify({ payload: slipVerify({ sendingBank: '004', transRef: `2026${randomBytes(8).toString('hex').toUpperCase()}` }) });
    expect(res.body).toMatchObject({ status: 'not_found', amount: null, paid_at: null, payment_id: null, first_verified_at: null });
  });

  it('of the right merchant with another expected amount is amount_mismatch, and does not use the slip up', async () => {
    const { paymentId, slip } = await paid(15000, { callback: true });
    expect((await verify({ payload: slip, amount: 14900 })).body).toMatchObject({ status: 'amount_mismatch', payment_id: paymentId, amount: 15000 });
    const { paymentId: otherPayment } = await paid(15000, { callback: true });
    expect((await verify({ payload: slip, payment_id: otherPayment })).body).toMatchObject({ status: 'wrong_receiver', payment_id: null });
    expect((await verify({ payload: slip, amount: 15000, payment_id: paymentId })).body.status).toBe('verified');
  });

  it('read from a PNG the test draws verifies as its payload does', async () => {
    const { paymentId, slip } = await paid(12345);
    const res = await verify({ image: await slipPng(slip) });
    expect(res.body).toMatchObject({ status: 'verified', payment_id: paymentId, amount: 12345 });
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
  });
});

describe("a slip of a till's static payment", () => {
  const tillPayments = async (tillId: string) => (await live.api.get(`/Thai/v1/payments?till_id=${tillId}`)).body.payments as Record<string, unknown>[];
  const createTill = async (name: string) => (await live.api.post('/Thai/v1/tills', { name })).body as { till_id: string; static_qr: { qr_data: string } };
  const payTill = async (qrData: string, amount: string, callback: boolean) => {
    live.bank.knobs.dropRate = callback ? 0 : 1;
    const paid = live.bank.pay({ qr_data: qrData, amount, payer_name: 'SOMCHAI J' });
    await live.bank.callbacksSettled();
    live.bank.knobs.dropRate = 0;
    return paid;
  };

  it('whose confirmation was dropped verifies and creates the static payment, once', async () => {
    const till = await createTill('Slip counter');
    const { slip, transaction } = await payTill(till.static_qr.qr_data, '150.50', false);
    expect(await tillPayments(till.till_id)).toEqual([]);

    const res = await verify({ payload: slip, amount: 15050 });
    expect(res.body).toMatchObject({ status: 'verified', amount: 15050, trans_ref: transaction.transactionId });
    const [payment, ...others] = await tillPayments(till.till_id);
    expect(others).toEqual([]);
    expect(payment).toMatchObject({ payment_id: res.body.payment_id, status: 'succeeded', amount: 15050, till_id: till.till_id, client_name: 'SOMCHAI J' });
    expect(await knex()('bank_transactions').where({ bank_transaction_id: transaction.transactionId })).toHaveLength(1);

    expect((await verify({ payload: slip })).body).toMatchObject({ status: 'duplicate', payment_id: payment!.payment_id });
    expect((await verify({ payload: slip }, other)).body).toMatchObject({ status: 'duplicate', payment_id: null });
    expect(await tillPayments(till.till_id)).toHaveLength(1);
  });

  it('whose confirmation came first names the payment it created; another amount, another merchant or a named payment do not verify', async () => {
    const till = await createTill('Slip counter 2');
    const { slip } = await payTill(till.static_qr.qr_data, '99.00', true);
    const [payment] = await tillPayments(till.till_id);
    expect(payment).toMatchObject({ status: 'succeeded', amount: 9900 });

    expect((await verify({ payload: slip }, other)).body).toMatchObject({ status: 'wrong_receiver', payment_id: null });
    expect((await verify({ payload: slip, amount: 10000 })).body).toMatchObject({ status: 'amount_mismatch', payment_id: payment!.payment_id });
    const { paymentId } = await paid(9900, { callback: true });
    expect((await verify({ payload: slip, payment_id: paymentId })).body).toMatchObject({ status: 'wrong_receiver', payment_id: null });
    expect((await verify({ payload: slip, amount: 9900 })).body).toMatchObject({ status: 'verified', payment_id: payment!.payment_id });
    expect(await tillPayments(till.till_id)).toHaveLength(1);
  });

  it('named by till_id verifies only at that till; another till is wrong_receiver, an unknown one 404 till_not_found', async () => {
    const [till, elsewhere] = [await createTill('Slip counter 3'), await createTill('Slip counter 4')];
    const { slip } = await payTill(till.static_qr.qr_data, '42.00', false);
    expectEnvelope(await verify({ payload: slip, till_id: 'till_unknown' }), 404, 'till_not_found');
    expect((await verify({ payload: slip, till_id: elsewhere.till_id })).body).toMatchObject({ status: 'wrong_receiver', payment_id: null });
    const [payment] = await tillPayments(till.till_id);
    expect((await verify({ payload: slip, till_id: till.till_id })).body).toMatchObject({ status: 'verified', amount: 4200, payment_id: payment!.payment_id });
  });
});

describe('a slip that cannot be read', () => {
  it('an image without a QR code answers 422 slip_unreadable', async () => {
    const png = new PNG({ width: 200, height: 200 });
    png.data.fill(255);
    const res = await verify({ image: PNG.sync.write(png).toString('base64') });
    expectEnvelope(res, 422, 'slip_unreadable');
  });

  it('a payload with a bad CRC, or one that is no slip QR, answers 422 invalid_slip and records nothing', async () => {
    const good = slipVerify({ sendingBank: '004', transRef: 'CRCTEST0001' });
    const bad = `${good.slice(0, -4)}${good.slice(-4) === '0000' ? '1111' : '0000'}`;
    expectEnvelope(await verify({ payload: bad }), 422, 'invalid_slip');
    const { body } = await live.api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
    expectEnvelope(await verify({ payload: body.qr_data }), 422, 'invalid_slip');
    expect(await slipRows('CRCTEST0001')).toEqual([]);
  });

  it('both or neither of payload and image answer 400', async () => {
    expectEnvelope(await verify({}), 400, 'invalid_request');
    expectEnvelope(await verify({ payload: 'x', image: 'eA==' }), 400, 'invalid_request');
  });
});

describe('the bank down', () => {
  it('answers 503 service_unavailable and records nothing; the slip verifies once the bank is back', async () => {
    const { paymentId, slip, transaction } = await paid(15000);
    live.bank.knobs.inquiryDown = true;
    try {
      expectEnvelope(await verify({ payload: slip }), 503, 'service_unavailable');
    } finally {
      live.bank.knobs.inquiryDown = false;
    }
    expect(await slipRows(transaction.transactionId)).toEqual([]);
    expect((await paymentOf(paymentId)).status).toBe('pending');
    expect((await verify({ payload: slip })).body.status).toBe('verified');
  });
});

describe('concurrency', () => {
  it('the same slip sent 20 times at once verifies once: the others are duplicates, the payment succeeds once', async () => {
    const { paymentId, slip, transaction } = await paid(15000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify({ payload: slip })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const statuses = answers.map((a) => a.body.status as string);
    expect(statuses.filter((s) => s === 'verified')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(19);
    expect(await slipRows(transaction.transactionId)).toHaveLength(20);
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
    const credits = (await live.api.get('/Thai/v1/transactions?type=payment')).body.transactions.filter(
      (t: { payment_id: string }) => t.payment_id === paymentId,
    );
    expect(credits).toHaveLength(1);
  });
});
