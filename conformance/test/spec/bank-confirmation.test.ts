import { afterAll, beforeAll, expect, it } from 'vitest';
import { contractProblems } from '../support/contract-check.js';
import { operation } from '../support/contract.js';
import { apiOf, send } from '../support/http.js';
import { startService, type Service } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

const confirmBankPayment = operation('confirmBankPayment');
const path = (url: string) => new URL(url).pathname;

it('the bank confirmation answers only as the contract documents: 200 received, 200 again, 503 unlisted', async () => {
  const { apiKey } = await service.merchant('live');
  const api = apiOf(service.url, apiKey);
  const qr = await api('POST', '/Thai/v1/qr-codes', { body: { amount: 15000, currency: 'THB' } });
  expect(qr.status).toBe(200);
  const { transaction } = service.bank.pay({ qr_data: (qr.json as { qr_data: string }).qr_data });
  const { reverseFlag: _r, ...confirmation } = transaction;

  const unlisted = await send(service.url, 'POST', path(service.bankCallbackUrl), { body: { ...confirmation, transactionId: 'NOT-LISTED' } });
  expect(unlisted.status).toBe(503);
  expect(contractProblems(confirmBankPayment, unlisted)).toEqual([]);

  for (let i = 0; i < 2; i++) {
    const received = await send(service.url, 'POST', path(service.bankCallbackUrl), { body: confirmation });
    expect(received.status).toBe(200);
    expect(received.json).toEqual({ resCode: '00', resDesc: 'success', transactionId: transaction.transactionId });
    expect(contractProblems(confirmBankPayment, received)).toEqual([]);
  }
  const payment = await api('GET', `/Thai/v1/payments/${(qr.json as { payment_id: string }).payment_id}`);
  expect((payment.json as { status: string }).status).toBe('succeeded');
});
