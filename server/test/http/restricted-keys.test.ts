import { describe, expect, it } from 'vitest';
import { operationOfRequest, permissionOf, type KeyedOperation } from '../../src/adapters/http/operation-permissions.js';
import { loadContract } from '../../src/adapters/http/validation.js';
import { setFeeBps } from '../../src/app/merchants.js';
import { issueTaxInvoices, setTaxDetails } from '../../src/app/tax-invoices.js';
import { operatorContext } from '../../src/domain/audit.js';
import { bangkokDateOf } from '../../src/domain/bangkok-day.js';
import { keyMay, resources, type Permission } from '../../src/domain/permissions.js';
import { bangkokMonthOf } from '../../src/domain/statement.js';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { apiClient, expectEnvelope, type ApiClient, type ApiResponse } from '../support/http.js';
import { usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { newPayment } from '../webhooks/fixtures.js';

/**
 * Restricted keys (`rk_test_...`) may call only the operations their permissions allow, on both lanes; every operation
 * of the contract that takes a key is tried with a key lacking its permission (403, nothing changed) and with a key
 * holding only that permission (200).
 */
/** The operator as the seller on tax invoices. */
const OPERATOR = { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' };

// No background jobs: nothing moves (a withdrawal paid out, a payment expired) between two looks at a merchant.
const { server } = usingTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...OPERATOR }, backgroundJobs: false });
const receiver = usingReceiver();

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

const qr = { amount: 150000, currency: 'THB' };

async function webhookOf(api: ApiClient): Promise<string> {
  const created = await api.post('/Thai/v1/webhooks', { url: receiver.endpoint('/restricted'), events: ['payment.succeeded'] });
  expect(created.status, created.text).toBe(200);
  return created.body.webhook_id as string;
}

async function refundOf(api: ApiClient): Promise<string> {
  const refund = await api.post('/Thai/v1/refunds', { payment_id: await paid(api, 20_000), amount: 5_000 });
  expect(refund.status, refund.text).toBe(200);
  return refund.body.refund_id as string;
}

async function withdrawalOf(api: ApiClient): Promise<string> {
  await paid(api, 20_000);
  const withdrawal = await api.post('/Thai/v1/withdrawals', { amount: 10_000 });
  expect(withdrawal.status, withdrawal.text).toBe(200);
  return withdrawal.body.withdrawal_id as string;
}

/** A specimen tax invoice of this month (a test merchant's), issued by the operator: the merchant pays fees and has tax details. */
async function taxInvoiceOf(api: ApiClient, merchantId: string): Promise<string> {
  const s = server.running.runtime.services;
  await setFeeBps(s, merchantId, 250);
  await setTaxDetails(s, merchantId, { taxId: '0994000165510', address: '99 Sukhumvit Road, Bangkok 10110', branch: '00000' });
  await paid(api, 20_000);
  await issueTaxInvoices(s, bangkokMonthOf(s.clock.now()), operatorContext);
  const invoices = await api.get('/Thai/v1/reports/tax-invoices');
  expect(invoices.status, invoices.text).toBe(200);
  return invoices.body.tax_invoices[0].tax_invoice_id as string;
}

async function testDeliveryOf(api: ApiClient): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await webhookOf(api);
  const sent = await api.post(`/Thai/v1/webhooks/${webhookId}/test`);
  expect(sent.status, sent.text).toBe(200);
  return { webhookId, deliveryId: sent.body.delivery_id as string };
}

async function tillOf(api: ApiClient): Promise<string> {
  const created = await api.post('/Thai/v1/tills', { name: 'Counter' });
  expect(created.status, created.text).toBe(200);
  return created.body.till_id as string;
}

async function slipOf(api: ApiClient): Promise<string> {
  const slip = await api.post(`/Thai/v1/test/payments/${await paid(api, 20_000)}/slip`);
  expect(slip.status, slip.text).toBe(200);
  return slip.body.payload as string;
}

async function slipVerificationOf(api: ApiClient): Promise<string> {
  const verified = await api.post('/Thai/v1/slip-verifications', { payload: await slipOf(api) });
  expect(verified.status, verified.text).toBe(200);
  return verified.body.slip_verification_id as string;
}

const today = () => bangkokDateOf(server.running.runtime.services.clock.now());

/** How to call each operation that takes a key, after making what it needs with the merchant's unrestricted key. */
const calls: Record<KeyedOperation, (api: ApiClient, merchantId: string) => Promise<Call>> = {
  createQrCode: async () => ({ method: 'POST', path: '/Thai/v1/qr-codes', body: qr }),
  listPayments: async () => ({ method: 'GET', path: '/Thai/v1/payments' }),
  createCardPayment: async () => ({ method: 'POST', path: '/Thai/v1/payments', body: { token_id: 'tok_visa', amount: 12_345, currency: 'THB' } }),
  retrievePayment: async (api) => ({ method: 'GET', path: `/Thai/v1/payments/${await newPayment(api)}` }),
  succeedTestPayment: async (api) => ({ method: 'POST', path: `/Thai/v1/test/payments/${await newPayment(api)}/succeed`, body: {} }),
  failTestPayment: async (api) => ({ method: 'POST', path: `/Thai/v1/test/payments/${await newPayment(api)}/fail` }),
  expireTestPayment: async (api) => ({ method: 'POST', path: `/Thai/v1/test/payments/${await newPayment(api)}/expire` }),
  createRefund: async (api) => ({ method: 'POST', path: '/Thai/v1/refunds', body: { payment_id: await paid(api, 20_000), amount: 5_000 } }),
  retrieveRefund: async (api) => ({ method: 'GET', path: `/Thai/v1/refunds/${await refundOf(api)}` }),
  listTransactions: async () => ({ method: 'GET', path: '/Thai/v1/transactions' }),
  retrieveBalance: async () => ({ method: 'GET', path: '/Thai/v1/balance' }),
  listBalanceTransactions: async () => ({ method: 'GET', path: '/Thai/v1/balance/transactions' }),
  createWithdrawal: async (api) => (await paid(api, 20_000), { method: 'POST', path: '/Thai/v1/withdrawals', body: { amount: 10_000 } }),
  listWithdrawals: async () => ({ method: 'GET', path: '/Thai/v1/withdrawals' }),
  retrieveWithdrawal: async (api) => ({ method: 'GET', path: `/Thai/v1/withdrawals/${await withdrawalOf(api)}` }),
  createWebhook: async () => ({ method: 'POST', path: '/Thai/v1/webhooks', body: { url: receiver.endpoint('/restricted'), events: ['payment.failed'] } }),
  listWebhooks: async () => ({ method: 'GET', path: '/Thai/v1/webhooks' }),
  retrieveWebhook: async (api) => ({ method: 'GET', path: `/Thai/v1/webhooks/${await webhookOf(api)}` }),
  updateWebhook: async (api) => ({ method: 'PATCH', path: `/Thai/v1/webhooks/${await webhookOf(api)}`, body: { status: 'disabled' } }),
  deleteWebhook: async (api) => ({ method: 'DELETE', path: `/Thai/v1/webhooks/${await webhookOf(api)}` }),
  retrieveWebhookSecret: async (api) => ({ method: 'GET', path: `/Thai/v1/webhooks/${await webhookOf(api)}/secret` }),
  listWebhookDeliveries: async (api) => ({ method: 'GET', path: `/Thai/v1/webhooks/${await webhookOf(api)}/deliveries` }),
  rotateWebhookSecret: async (api) => ({ method: 'POST', path: `/Thai/v1/webhooks/${await webhookOf(api)}/rotate-secret`, body: {} }),
  sendWebhookTest: async (api) => ({ method: 'POST', path: `/Thai/v1/webhooks/${await webhookOf(api)}/test` }),
  retryWebhookDelivery: async (api) => {
    const { webhookId, deliveryId } = await testDeliveryOf(api);
    return { method: 'POST', path: `/Thai/v1/webhooks/${webhookId}/deliveries/${deliveryId}/retry` };
  },
  listEvents: async () => ({ method: 'GET', path: '/Thai/v1/events' }),
  retrieveEvent: async (api) => {
    await newPayment(api);
    const events = await api.get('/Thai/v1/events');
    expect(events.status, events.text).toBe(200);
    return { method: 'GET', path: `/Thai/v1/events/${events.body.events[0].id as string}` };
  },
  retrieveStatement: async () => ({ method: 'GET', path: `/Thai/v1/reports/statements/${today().slice(0, 7)}` }),
  retrieveSettlementFile: async () => ({ method: 'GET', path: `/Thai/v1/reports/settlements/${today()}?format=csv` }),
  listTaxInvoices: async () => ({ method: 'GET', path: '/Thai/v1/reports/tax-invoices' }),
  retrieveTaxInvoice: async (api, merchantId) => ({ method: 'GET', path: `/Thai/v1/reports/tax-invoices/${await taxInvoiceOf(api, merchantId)}` }),
  retrieveTaxInvoicePdf: async (api, merchantId) => ({ method: 'GET', path: `/Thai/v1/reports/tax-invoices/${await taxInvoiceOf(api, merchantId)}/pdf` }),
  createTill: async () => ({ method: 'POST', path: '/Thai/v1/tills', body: { name: 'Front counter' } }),
  listTills: async () => ({ method: 'GET', path: '/Thai/v1/tills' }),
  retrieveTill: async (api) => ({ method: 'GET', path: `/Thai/v1/tills/${await tillOf(api)}` }),
  closeTill: async (api) => ({ method: 'POST', path: `/Thai/v1/tills/${await tillOf(api)}/close` }),
  rollTillDisplayUrl: async (api) => ({ method: 'POST', path: `/Thai/v1/tills/${await tillOf(api)}/display-url/roll` }),
  createTestTillPayment: async (api) => ({ method: 'POST', path: `/Thai/v1/test/tills/${await tillOf(api)}/payments`, body: { amount: 15_000 } }),
  createSlipVerification: async (api) => ({ method: 'POST', path: '/Thai/v1/slip-verifications', body: { payload: await slipOf(api) } }),
  retrieveSlipVerification: async (api) => ({ method: 'GET', path: `/Thai/v1/slip-verifications/${await slipVerificationOf(api)}` }),
  createTestPaymentSlip: async (api) => ({ method: 'POST', path: `/Thai/v1/test/payments/${await paid(api, 20_000)}/slip` }),
};

const everyPermission: Permission[] = resources.flatMap((resource) => [`${resource}:read`, `${resource}:write`] as Permission[]);

/** Every permission but `needed` and those implying it: the strongest key that still may not call the operation. */
const allBut = (needed: Permission): Permission[] => everyPermission.filter((permission) => !keyMay([permission], needed));

const send = (api: ApiClient, call: Call, apiKey: string, idempotencyKey?: string): Promise<ApiResponse> =>
  api.send(call.method, call.path, call.body, { apiKey, ...(idempotencyKey ? { idempotencyKey } : {}) });

/** Everything a merchant's records say, read without changing anything (the secrets from the database, never through the audited API). */
async function everythingOf(api: ApiClient, merchantId: string): Promise<unknown> {
  const read = async (path: string) => {
    const res = await api.get(path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body;
  };
  const webhooks = (await read('/Thai/v1/webhooks?limit=100')).webhooks as { webhook_id: string }[];
  const repos = server.running.runtime.services.uow.repos;
  return {
    payments: await read('/Thai/v1/payments?limit=100'),
    transactions: await read('/Thai/v1/transactions?limit=100'),
    balance: await read('/Thai/v1/balance'),
    ledger: await read('/Thai/v1/balance/transactions?limit=100'),
    withdrawals: await read('/Thai/v1/withdrawals?limit=100'),
    taxInvoices: await read('/Thai/v1/reports/tax-invoices?limit=100'),
    tills: await read('/Thai/v1/tills?limit=100'),
    events: await read('/Thai/v1/events?limit=100'),
    webhooks,
    deliveries: await Promise.all(webhooks.map((webhook) => read(`/Thai/v1/webhooks/${webhook.webhook_id}/deliveries?limit=100`))),
    secrets: await Promise.all(webhooks.map((webhook) => repos.webhooks.secretOf(merchantId, webhook.webhook_id))),
    audit: await server.auditEntries(merchantId),
  };
}

describe('restricted API keys', () => {
  it('cover every operation of the contract that takes a key, and nothing else', () => {
    const contract = loadContract() as unknown as {
      security: unknown[];
      paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>>;
    };
    const keyed = Object.values(contract.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation?.operationId && (operation.security ?? contract.security).length > 0)
      .map((operation) => operation.operationId!);
    expect(Object.keys(permissionOf).sort()).toEqual([...new Set(keyed)].sort());
    expect(Object.keys(calls).sort()).toEqual(Object.keys(permissionOf).sort());
    expect(() => operationOfRequest()).not.toThrow();
  });

  it("the contract's table says what each operation needs, as the server enforces it", () => {
    const description = (loadContract() as unknown as { info: { description: string } }).info.description;
    const rows = [...description.matchAll(/^\| `(\w+)` \| `[^`]+` \| `(\w+:(?:read|write))` \|$/gm)].map(([, operation, permission]) => [
      operation,
      permission,
    ]);
    expect(Object.fromEntries(rows)).toEqual(permissionOf);
  });

  for (const operation of Object.keys(permissionOf) as KeyedOperation[]) {
    const needed: Permission = permissionOf[operation];
    it(`${operation}: 403 without ${needed}, nothing changed; 200 with ${needed} alone`, async () => {
      const merchant = await server.merchant({ payoutAccount });
      const api = apiClient(server.url, { apiKey: merchant.apiKey });
      const call = await calls[operation](api, merchant.id);
      const lacking = await server.apiKey(merchant.id, allBut(needed));
      expect(lacking).toMatch(/^rk_test_[A-Za-z0-9_-]+$/);

      const before = await everythingOf(api, merchant.id);
      const refused = await send(api, call, lacking, `lacking-${operation}`);
      expectEnvelope(refused, 403, 'permission_denied');
      expect(refused.body.error.type).toBe('permission_error');
      expect(refused.body.error.message).toContain(`'${needed}'`);
      expect(await everythingOf(api, merchant.id)).toEqual(before);

      // The refusal was not stored under its Idempotency-Key: a key that may call the operation is answered anew.
      const holding = await server.apiKey(merchant.id, [needed]);
      const allowed = await send(api, call, holding, call.method === 'POST' ? `lacking-${operation}` : undefined);
      expect(allowed.status, allowed.text).toBe(200);
      expect(allowed.headers.get('idempotent-replayed')).toBeNull();
    });
  }

  it('a point-of-sale key (qr_codes:write,payments:read) makes QR codes and reads payments, and cannot refund, withdraw or read the balance', async () => {
    const merchant = await server.merchant({ payoutAccount });
    const owner = apiClient(server.url, { apiKey: merchant.apiKey });
    const paymentId = await paid(owner, 50_000);
    const pos = apiClient(server.url, { apiKey: await server.apiKey(merchant.id, ['qr_codes:write', 'payments:read']) });

    const created = await pos.post('/Thai/v1/qr-codes', qr);
    expect(created.status, created.text).toBe(200);
    expect((await pos.get(`/Thai/v1/payments/${created.body.payment_id as string}`)).status).toBe(200);
    expect((await pos.get('/Thai/v1/payments')).status).toBe(200);

    const refused: [ApiResponse, Permission][] = [
      [await pos.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 1_000 }), 'refunds:write'],
      [await pos.post('/Thai/v1/withdrawals', { amount: 10_000 }), 'withdrawals:write'],
      [await pos.get('/Thai/v1/balance'), 'balance:read'],
      [await pos.get('/Thai/v1/balance/transactions'), 'balance:read'],
      [await pos.post(`/Thai/v1/test/payments/${created.body.payment_id as string}/succeed`, {}), 'payments:write'],
      [await pos.get('/v1/transactions'), 'transactions:read'],
    ];
    for (const [res, permission] of refused) {
      expectEnvelope(res, 403, 'permission_denied');
      expect(res.body.error.message).toContain(`'${permission}'`);
    }
    // A body the contract refuses is not even read: the permission is settled first.
    expectEnvelope(await pos.send('POST', '/Thai/v1/refunds', undefined, { rawBody: '{"payment_id":' }), 403, 'permission_denied');
    expect((await owner.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect((await owner.get('/Thai/v1/balance')).body).toMatchObject({ available: 50_000 });
  });

  it('write implies read; unrestricted keys, old and new, may do everything as before', async () => {
    const merchant = await server.merchant({ payoutAccount });
    const writer = apiClient(server.url, { apiKey: await server.apiKey(merchant.id, ['withdrawals:write', 'balance:read']) });
    expect((await writer.get('/Thai/v1/withdrawals')).status).toBe(200);

    const another = await server.apiKey(merchant.id, null);
    expect(another).toMatch(/^sk_test_/);
    for (const apiKey of [merchant.apiKey, another]) {
      const api = apiClient(server.url, { apiKey });
      const paymentId = await paid(api, 30_000);
      expect((await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 1_000 })).status).toBe(200);
      expect((await api.post('/Thai/v1/withdrawals', { amount: 10_000 })).status).toBe(200);
      expect((await api.get('/Thai/v1/balance')).status).toBe(200);
    }
  });

  it('an unknown or malformed restricted key answers 401 like any other', async () => {
    const merchant = await server.merchant();
    const api = apiClient(server.url);
    expectEnvelope(await api.get('/Thai/v1/payments', { apiKey: 'rk_test_unknown' }), 401, 'authentication_failed');
    expectEnvelope(await api.get('/Thai/v1/payments', { apiKey: 'rk_prod_x' }), 401, 'authentication_failed');
    const key = await server.apiKey(merchant.id, ['payments:read']);
    expect((await api.get('/Thai/v1/payments', { apiKey: key })).status).toBe(200);
  });
});
