import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, send, type Exchange } from '../support/http.js';
import { seeder } from '../support/seed.js';
import { startService, type Service } from '../support/service.js';

let service: Service;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  service = await startService();
  const { merchant, apiKey } = await service.merchant();
  const api = apiOf(service.url, apiKey);
  const { paymentId, qrCodeId } = await seeder(service, merchant).pendingPayment(15000);
  const requests: (() => Promise<Exchange>)[] = [
    () => api('POST', '/Thai/v1/qr-codes', { body: { amount: 15000, currency: 'THB' } }),
    () => api('POST', '/v1/qr-codes', { body: { amount: 15000, currency: 'THB' }, idempotencyKey: 'rid' }),
    () => api('POST', '/Thai/qr-codes', { body: { amount: 15000, currency: 'THB' }, idempotencyKey: 'rid' }), // a replay
    () => api('GET', `/Thai/v1/payments/${paymentId}`),
    () => api('GET', '/v1/transactions'),
    () => send(service.url, 'GET', `/Thai/qr-codes/${qrCodeId}/image`),
    () => send(service.url, 'GET', `/Thai/qr-codes/${qrCodeId}/image?format=svg`),
    () => send(service.url, 'GET', '/Thai/v1/payments'),
    () => api('GET', '/Thai/v1/nowhere'),
    () => api('DELETE', '/Thai/v1/payments'),
    () => api('POST', '/Thai/v1/refunds', { rawBody: '{' }),
    () => api('POST', `/Thai/v1/test/payments/${paymentId}/succeed`),
    () => api('POST', `/Thai/v1/test/payments/${paymentId}/succeed`),
    () => send(service.url, 'GET', '/healthz'),
    () => send(service.url, 'GET', '/'),
  ];
  for (const request of requests) exchanges.push(await request());
});
afterAll(async () => {
  await service?.stop();
});

describe('Request-Id', () => {
  it('is on every response: successes, images, errors, replays, unknown routes, health', () => {
    const missing = exchanges.filter((e) => !e.headers.get('request-id')).map((e) => `${e.method} ${e.path} -> ${e.status}`);
    expect(missing).toEqual([]);
    expect(new Set(exchanges.map((e) => e.status)).size).toBeGreaterThan(5);
  });

  it('is unique per request, a replay included', () => {
    const ids = exchanges.map((e) => e.headers.get('request-id'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('equals error.request_id in every error body', () => {
    for (const e of exchanges.filter((x) => x.status >= 400)) {
      expect((e.json as { error: { request_id: string } }).error.request_id, `${e.method} ${e.path}`).toBe(e.headers.get('request-id'));
    }
  });
});
