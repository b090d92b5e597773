import { parse } from 'promptparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope } from '../support/http.js';
import { eventually } from '../support/receiver.js';
import { bankSettings, callbackUrlOf, startLiveBank, type LiveBank } from '../support/bank.js';

let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
});
afterAll(async () => {
  await live?.stop();
});

const paymentOf = async (id: string) => (await live.api.get(`/Thai/v1/payments/${id}`)).body;
const confirm = (body: unknown, token = bankSettings.callbackToken) =>
  fetch(`${live.server.url}/bank/scb/confirmations/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: await r.json(),
  }));
const confirmationOf = (t: (typeof live.bank.transactions)[number]) => {
  const { reverseFlag: _r, ...fields } = t;
  return fields;
};

describe('a live QR code', () => {
  it('is a tag-30 bill payment to the biller, with the bank reference as ref1 and PQR as ref2', async () => {
    const { qrData, ref1 } = await live.liveQr(15000);
    const qr = parse(qrData, true)!;
    expect(qr.getTagValue('30', '00')).toBe('A000000677010112');
    expect(qr.getTagValue('30', '01')).toBe(bankSettings.billerId);
    expect(ref1).toMatch(/^[A-Z0-9]{1,20}$/);
    expect(qr.getTagValue('30', '03')).toBe('PQR');
    expect(qr.getTagValue('54')).toBe('150.00');
  });

  it('paid through the bank becomes succeeded with the payer details, and payment.succeeded is written', async () => {
    const hook = await live.api.post('/Thai/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['payment.succeeded'] });
    const { paymentId, qrData } = await live.liveQr(15000, { client_name: 'Kept as given' });
    const { transaction } = live.bank.pay({ qr_data: qrData, payer_name: 'SOMSRI DEEJAI', payer_account: '1234567890', sending_bank_code: '004' });
    await live.bank.callbacksSettled();
    const payment = await paymentOf(paymentId);
    expect(payment).toMatchObject({ status: 'succeeded', client_name: 'Kept as given', client_bank_name: 'KBANK', client_bank_account: '1234567890' });
    expect(payment.completed_at).toBe(new Date(transaction.transactionDateandTime).toISOString());
    expect(live.bank.callbackAttempts.filter((a) => a.transactionId === transaction.transactionId).at(-1)).toEqual({
      transactionId: transaction.transactionId,
      status: 200,
      body: JSON.stringify({ resCode: '00', resDesc: 'success', transactionId: transaction.transactionId }),
    });
    const deliveries = (await live.api.get(`/Thai/v1/webhooks/${hook.body.webhook_id}/deliveries`)).body.deliveries;
    expect(hook.status).toBe(200);
    expect(deliveries.map((d: { event_type: string }) => d.event_type)).toEqual(['payment.succeeded']);
    const txns = (await live.api.get('/Thai/v1/transactions?type=payment')).body.transactions.filter((t: { payment_id: string }) => t.payment_id === paymentId);
    expect(txns).toMatchObject([{ status: 'succeeded', amount: 15000 }]);
  });

  it('has no test helpers: they answer 404 for a live key', async () => {
    const { paymentId } = await live.liveQr(15000);
    const res = await live.api.post(`/Thai/v1/test/payments/${paymentId}/succeed`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('payment_not_found');
    expect((await paymentOf(paymentId)).status).toBe('pending');
  });

  it('an unlisted code keeps its own code as the payer bank name', async () => {
    const { paymentId, qrData } = await live.liveQr(20000);
    live.bank.pay({ qr_data: qrData, sending_bank_code: '999' });
    await live.bank.callbacksSettled();
    expect(await paymentOf(paymentId)).toMatchObject({ status: 'succeeded', client_bank_name: '999' });
  });
});

describe('confirmations are applied once', () => {
  it('duplicate callbacks, sent at once, apply once; a late repeat answers 200 and changes nothing', async () => {
    live.bank.knobs.duplicateRate = 1;
    try {
      const { paymentId, qrData } = await live.liveQr(30000);
      const { transaction } = live.bank.pay({ qr_data: qrData });
      await live.bank.callbacksSettled();
      const attempts = live.bank.callbackAttempts.filter((a) => a.transactionId === transaction.transactionId);
      expect(attempts.filter((a) => a.status === 200)).toHaveLength(2); // both copies answered 200 (after a resend, on a busy machine)
      const settled = await paymentOf(paymentId);
      expect(settled.status).toBe('succeeded');

      const again = await confirm(confirmationOf(transaction));
      expect(again).toMatchObject({ status: 200, body: { resCode: '00', resDesc: 'success', transactionId: transaction.transactionId } });
      expect(await paymentOf(paymentId)).toEqual(settled);
      const events = (await live.api.get(`/Thai/v1/transactions`)).body.transactions.filter((t: { payment_id: string }) => t.payment_id === paymentId);
      expect(events).toHaveLength(1);
    } finally {
      live.bank.knobs.duplicateRate = 0;
    }
  });

  it('a confirmation for a second transaction on a settled payment is recorded as unmatched, not applied again', async () => {
    const { paymentId, qrData } = await live.liveQr(40000);
    live.bank.pay({ qr_data: qrData });
    live.bank.pay({ qr_data: qrData }); // the customer paid twice
    await live.bank.callbacksSettled();
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
    const unmatched = await live.server.running.runtime.services.uow.repos.bankTransactions.listUnmatched(100);
    expect(unmatched.filter((u) => u.paymentId === paymentId).map((u) => u.reason)).toEqual(['payment_not_pending']);
  });
});

describe('a confirmation is never trusted on its word', () => {
  it('a forged confirmation (not listed by the inquiry) answers 503 and changes nothing', async () => {
    const { paymentId, ref1 } = await live.liveQr(15000);
    const forged = {
      transactionId: 'FORGED0001',
      amount: '150.00',
      transactionDateandTime: new Date().toISOString(),
      billPaymentRef1: ref1,
      payeeProxyId: bankSettings.billerId,
    };
    const res = await confirm(forged);
    expectEnvelope(res as never, 503, 'service_unavailable');
    expect((await paymentOf(paymentId)).status).toBe('pending');
  });

  it('a real transaction id with another amount answers 503 and changes nothing', async () => {
    const { paymentId, qrData } = await live.liveQr(15000);
    live.bank.setCallbackUrl('http://127.0.0.1:9/nowhere'); // this one's own callback goes nowhere
    const { transaction } = live.bank.pay({ qr_data: qrData });
    await live.bank.callbacksSettled();
    live.bank.setCallbackUrl(callbackUrlOf(live.server.url));
    expectEnvelope((await confirm({ ...confirmationOf(transaction), amount: '1.00' })) as never, 503, 'service_unavailable');
    expect((await paymentOf(paymentId)).status).toBe('pending');
    expect(await confirm(confirmationOf(transaction))).toMatchObject({ status: 200 });
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
  });

  it('a wrong token answers 404; a body that is not a confirmation answers 400', async () => {
    const { ref1 } = await live.liveQr(15000);
    const valid = { transactionId: 'X1', amount: '150.00', transactionDateandTime: new Date().toISOString(), billPaymentRef1: ref1 };
    expectEnvelope((await confirm(valid, 'wrong-token-wrong-token-wrong-token-00')) as never, 404, 'route_not_found');
    for (const body of [
      {},
      [],
      { ...valid, transactionId: 7 },
      { ...valid, transactionDateandTime: 'yesterday' },
      { ...valid, amount: undefined },
      { ...valid, billPaymentRef1: null },
    ]) {
      expectEnvelope((await confirm(body)) as never, 400, 'invalid_request');
    }
    const raw = await fetch(callbackUrlOf(live.server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"transactionId":' });
    expect(raw.status).toBe(400);
  });

  it('the inquiry being down answers 503; the bank retries and the retry succeeds', async () => {
    const { paymentId, qrData } = await live.liveQr(15000);
    live.bank.knobs.inquiryDown = true;
    live.bank.knobs.delayMs = 0;
    const { transaction } = live.bank.pay({ qr_data: qrData });
    await eventually(() => live.bank.callbackAttempts.some((a) => a.transactionId === transaction.transactionId), 'first callback answered');
    live.bank.knobs.inquiryDown = false;
    await live.bank.callbacksSettled();
    const attempts = live.bank.callbackAttempts.filter((a) => a.transactionId === transaction.transactionId).map((a) => a.status);
    expect(attempts[0]).toBe(503);
    expect(attempts.at(-1)).toBe(200);
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
  });

  it('an expired or revoked bank token is replaced and the inquiry asked again (status 9300)', async () => {
    const { paymentId, qrData } = await live.liveQr(15000);
    live.bank.revokeTokens();
    live.bank.pay({ qr_data: qrData });
    await live.bank.callbacksSettled();
    expect((await paymentOf(paymentId)).status).toBe('succeeded');
  });
});
