import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { buildPromptPayPayload, crc16CcittFalse } from '../../src/domain/promptpay-payload.js';
import { bankSettings } from '../support/bank.js';

let bank: BankSimulator;
beforeAll(async () => {
  bank = await startBankSimulator({ ...bankSettings });
});
afterAll(async () => {
  await bank?.stop();
});

const billPayment = (billerId = bankSettings.billerId, amountSatang = 15000) =>
  buildPromptPayPayload({ account: { kind: 'biller_id', billerId }, amountSatang, reference: 'ABC123', ref2: 'PQR' });
const pay = (body: unknown) =>
  fetch(`${bank.url}/simulate/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));

describe('the bank simulator reads a QR payload as a banking app does', () => {
  it('pays a bill payment to its biller and lists it in the inquiry', async () => {
    const paid = await pay({ qr_data: billPayment(), payer_name: 'A PAYER' });
    expect(paid).toMatchObject({
      status: 200,
      body: {
        transaction: { amount: '150.00', billPaymentRef1: 'ABC123', billPaymentRef2: 'PQR', payeeProxyId: bankSettings.billerId, payerName: 'A PAYER' },
        callback: 'none',
      },
    });
    expect(paid.body.transaction.transactionDateandTime).toMatch(/\+07:00$/);
  });

  it('refuses a payload with a bad CRC', async () => {
    const payload = billPayment();
    const broken = payload.slice(0, -4) + (payload.endsWith('0000') ? '0001' : '0000');
    expect(await pay({ qr_data: broken })).toMatchObject({ status: 422, body: { error: { code: 'bad_crc' } } });
    expect(bank.transactions.some((t) => t.billPaymentRef1 === 'ABC123' && t.amount === '1.00')).toBe(false);
  });

  it('refuses another biller, a payload without an amount, a credit transfer and garbage', async () => {
    expect(await pay({ qr_data: billPayment('099999999999999') })).toMatchObject({ status: 422, body: { error: { code: 'wrong_biller' } } });
    const withoutAmount = billPayment()
      .replace(/5406150\.00/, '')
      .slice(0, -4);
    expect(await pay({ qr_data: withoutAmount + crc16CcittFalse(withoutAmount) })).toMatchObject({ status: 422, body: { error: { code: 'missing_amount' } } });
    const transfer = buildPromptPayPayload({ account: { kind: 'promptpay_id', id: '0812345678' }, amountSatang: 100, reference: 'X1' });
    expect(await pay({ qr_data: transfer })).toMatchObject({ status: 422, body: { error: { code: 'not_bill_payment' } } });
    expect(await pay({ qr_data: 'hello' })).toMatchObject({ status: 422, body: { error: { code: 'invalid_qr' } } });
  });

  it('answers the inquiry only with a valid token: 9300 otherwise, 1104 when nothing is listed', async () => {
    const inquiry = (headers: Record<string, string>) =>
      fetch(`${bank.url}/v1/payment/billpayment/inquiry?eventCode=00300100&transactionDate=2026-01-01&billerId=${bankSettings.billerId}&reference1=NONE`, {
        headers,
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(await inquiry({ authorization: 'Bearer nope', resourceOwnerId: bankSettings.apiKey })).toMatchObject({
      status: 401,
      body: { status: { code: 9300 } },
    });
    const token = await fetch(`${bank.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', resourceOwnerId: bankSettings.apiKey, requestUId: 'u1', 'accept-language': 'EN' },
      body: JSON.stringify({ applicationKey: bankSettings.apiKey, applicationSecret: bankSettings.apiSecret }),
    }).then((r) => r.json());
    expect(token).toMatchObject({ status: { code: 1000 }, data: { tokenType: 'Bearer', expiresIn: 1800 } });
    expect(await inquiry({ authorization: `Bearer ${token.data.accessToken}`, resourceOwnerId: bankSettings.apiKey })).toMatchObject({
      status: 404,
      body: { status: { code: 1104 } },
    });
  });
});
