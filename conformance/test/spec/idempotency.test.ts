import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblems } from '../support/contract-check.js';
import { operation } from '../support/contract.js';
import { apiOf, type Api, type Exchange } from '../support/http.js';
import { seeder } from '../support/seed.js';
import { startService, type Service } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service?.stop();
});

/** Each check gets a merchant of its own: keys are scoped to the merchant, and counts start at zero. */
async function merchantApi(): Promise<{ api: Api; apiKey: string; merchant: Awaited<ReturnType<Service['merchant']>>['merchant'] }> {
  const { merchant, apiKey } = await service.merchant();
  return { api: apiOf(service.url, apiKey), apiKey, merchant };
}

const paymentsOf = async (api: Api) => (await api('GET', '/Thai/v1/payments?limit=100')).json as { total: number; payments: { payment_id: string }[] };
const qrRequest = { amount: 15000, currency: 'THB', reference: 'ORDER-1001' };

describe('Idempotency-Key: replay', () => {
  it('answers a retried request with the original status and bytes, Idempotent-Replayed: true, a new Request-Id', async () => {
    const { api } = await merchantApi();
    const first = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'order-1001' });
    const again = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'order-1001' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    expect(contractProblems(operation('createQrCode'), again)).toEqual([]);
    expect((await paymentsOf(api)).total).toBe(1);
  });

  it('replays a stored 402 and 422 byte for byte, their request_id included', async () => {
    const { api } = await merchantApi();
    for (const [status, body] of [
      [402, { token_id: 'tok_declined', amount: 10000, currency: 'THB' }],
      [422, { token_id: 'tok_visa', amount: 10, currency: 'THB' }],
    ] as const) {
      const first = await api('POST', '/Thai/v1/payments', { body, idempotencyKey: `card-${status}` });
      const again = await api('POST', '/Thai/v1/payments', { body, idempotencyKey: `card-${status}` });
      expect([first.status, again.status]).toEqual([status, status]);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(contractProblems(operation('createCardPayment'), again)).toEqual([]);
    }
    expect((await paymentsOf(api)).total).toBe(1); // the declined charge is recorded once; the 422 made nothing
  });

  it('treats the canonical, alias and legacy paths as one operation, and the body key as the header', async () => {
    const { api } = await merchantApi();
    const first = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'same-op' });
    const viaAlias = await api('POST', '/v1/qr-codes', { body: qrRequest, idempotencyKey: 'same-op' });
    const viaLegacy = await api('POST', '/Thai/qr-codes', { body: { ...qrRequest, idempotency_key: 'same-op' } });
    for (const replay of [viaAlias, viaLegacy]) {
      expect(replay.text).toBe(first.text);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect((await paymentsOf(api)).total).toBe(1);
  });

  it('does not store a 400, so a corrected retry with the same key is processed', async () => {
    const { api } = await merchantApi();
    const refused = await api('POST', '/Thai/v1/qr-codes', { body: { ...qrRequest, reference: 'R'.repeat(36) }, idempotencyKey: 'fix-me' });
    const corrected = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'fix-me' });
    expect(refused.status).toBe(400);
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys to the merchant', async () => {
    const [a, b] = [await merchantApi(), await merchantApi()];
    const first = await a.api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'shared-key' });
    const other = await b.api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'shared-key' });
    expect(other.status).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect((other.json as { payment_id: string }).payment_id).not.toBe((first.json as { payment_id: string }).payment_id);
  });
});

describe('Idempotency-Key: conflict', () => {
  it.each([
    ['a different body', '/Thai/v1/qr-codes', { ...qrRequest, amount: 15001 }],
    ['a different operation', '/Thai/v1/payments', { token_id: 'tok_visa', amount: 15000, currency: 'THB' }],
  ])('answers 409 idempotency_key_reused for %s, and makes nothing', async (_name, path, body) => {
    const { api } = await merchantApi();
    await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: 'once' });
    const conflict = await api('POST', path, { body, idempotencyKey: 'once' });
    expect(conflict.status).toBe(409);
    expect((conflict.json as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
    expect(contractProblems(operation(path.endsWith('qr-codes') ? 'createQrCode' : 'createCardPayment'), conflict)).toEqual([]);
    expect((await paymentsOf(api)).total).toBe(1);
  });
});

describe('Idempotency-Key: concurrency', () => {
  const parallel = (count: number, request: () => Promise<Exchange>) => Promise.all(Array.from({ length: count }, request));

  it.each([
    ['createQrCode', '/Thai/v1/qr-codes', qrRequest],
    ['createCardPayment', '/Thai/v1/payments', { token_id: 'tok_visa', amount: 15000, currency: 'THB' }],
  ])('%s: 20 parallel requests with one key make exactly one payment', async (operationId, path, body) => {
    const { api } = await merchantApi();
    const answers = await parallel(20, () => api('POST', path, { body, idempotencyKey: 'race' }));
    for (const answer of answers) expect(contractProblems(operation(operationId), answer)).toEqual([]);
    const created = answers.filter((a) => a.status === 200);
    const inUse = answers.filter((a) => a.status === 409);
    expect(created.length + inUse.length).toBe(20);
    expect(inUse.every((a) => (a.json as { error: { code: string } }).error.code === 'idempotency_key_in_use')).toBe(true);
    expect(new Set(created.map((a) => (a.json as { payment_id: string }).payment_id)).size).toBe(1);
    expect(created.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect((await paymentsOf(api)).total).toBe(1);
  });

  it('refunds: 20 parallel requests with one key refund once', async () => {
    const { api, merchant } = await merchantApi();
    const { paymentId } = await seeder(service, merchant).succeededPayment(150000);
    const answers = await parallel(20, () => api('POST', '/Thai/v1/refunds', { body: { payment_id: paymentId, amount: 1000 }, idempotencyKey: 'refund-race' }));
    expect(new Set(answers.filter((a) => a.status === 200).map((a) => (a.json as { refund_id: string }).refund_id)).size).toBe(1);
    const payment = (await api('GET', `/Thai/v1/payments/${paymentId}`)).json as { refunded_amount: number };
    expect(payment.refunded_amount).toBe(1000);
  });
});
