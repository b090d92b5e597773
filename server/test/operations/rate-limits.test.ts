import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiResponse } from '../support/http.js';
import { manualClock, startTestServer, usingTestServer } from '../support/test-server.js';

const LIMIT = 5;
const clock = manualClock(new Date('2026-11-23T10:00:00.000Z'));

const { server } = usingTestServer({ clock, env: { RATE_LIMIT_PER_SECOND: String(LIMIT) } });

const remaining = (res: ApiResponse): number => Number(/^"merchant";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '')?.[1]);

describe('per-merchant token bucket (RATE_LIMIT_PER_SECOND)', () => {
  it('announces the policy and what is left on every answer, and refuses the request after the burst with 429', async () => {
    const api = apiClient(server.url, await server.merchant());
    const burst: ApiResponse[] = [];
    for (let i = 0; i < LIMIT; i++) burst.push(await api.get('/Thai/v1/payments?limit=1'));
    expect(burst.map((res) => res.status)).toEqual(Array(LIMIT).fill(200));
    expect(burst.map((res) => res.headers.get('ratelimit-policy'))).toEqual(Array(LIMIT).fill(`"merchant";q=${LIMIT};w=1`));
    expect(burst.map(remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(burst[4]!.headers.get('ratelimit')).toBe('"merchant";r=0;t=1');

    // Any operation, whichever base path: the bucket is the merchant's.
    const refused = await api.post('/v1/qr-codes', { amount: 10000, currency: 'THB' });
    expectEnvelope(refused, 429, 'rate_limit_exceeded');
    expect(refused.body.error.type).toBe('rate_limit_error');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-policy')).toBe(`"merchant";q=${LIMIT};w=1`);
    expect(refused.headers.get('ratelimit')).toBe('"merchant";r=0;t=1');

    // It refills at LIMIT tokens a second: one request fits again after 1/LIMIT s.
    clock.advance(1000 / LIMIT);
    expect((await api.get('/Thai/v1/payments?limit=1')).status).toBe(200);
    expect((await api.get('/Thai/v1/payments?limit=1')).status).toBe(429);
    clock.advance(1000);
  });

  it('counts each merchant on its own', async () => {
    const busy = apiClient(server.url, await server.merchant());
    const quiet = apiClient(server.url, await server.merchant());
    for (let i = 0; i < LIMIT; i++) await busy.get('/Thai/v1/transactions');
    expect((await busy.get('/Thai/v1/transactions')).status).toBe(429);
    const other = await quiet.get('/Thai/v1/transactions');
    expect(other.status).toBe(200);
    expect(remaining(other)).toBe(LIMIT - 1);
    clock.advance(1000);
  });

  it('never stores a 429 under an Idempotency-Key: the same key is processed once the bucket refills', async () => {
    const api = apiClient(server.url, await server.merchant());
    for (let i = 0; i < LIMIT; i++) await api.get('/Thai/v1/payments?limit=1');
    const body = { amount: 25000, currency: 'THB', reference: 'ORDER-429' };
    const refused = await api.post('/Thai/v1/qr-codes', body, { idempotencyKey: 'order-429' });
    expectEnvelope(refused, 429, 'rate_limit_exceeded');

    clock.advance(Number(refused.headers.get('retry-after')) * 1000);
    const created = await api.post('/Thai/v1/qr-codes', body, { idempotencyKey: 'order-429' });
    expect(created.status, created.text).toBe(200);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await api.post('/Thai/v1/qr-codes', body, { idempotencyKey: 'order-429' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.payment_id).toBe(created.body.payment_id);
    clock.advance(1000);
  });

  it('counts the public QR image per client address, apart from the merchant', async () => {
    const api = apiClient(server.url, await server.merchant());
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
    const image = `/Thai/qr-codes/${qr.body.qr_code_id}/image?format=svg`;
    const public_ = apiClient(server.url);
    const images: ApiResponse[] = [];
    for (let i = 0; i < LIMIT + 1; i++) images.push(await public_.get(image));
    expect(images.slice(0, LIMIT).map((res) => res.status)).toEqual(Array(LIMIT).fill(200));
    expect(images[0]!.headers.get('ratelimit-policy')).toBe(`"address";q=${LIMIT};w=1`);
    expectEnvelope(images[LIMIT]!, 429, 'rate_limit_exceeded');
    expect(Number(images[LIMIT]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The merchant's own bucket is untouched by the image requests.
    expect(remaining(await api.get('/Thai/v1/payments?limit=1'))).toBe(LIMIT - 2); // the QR code and this request
    clock.advance(1000);
  });

  it('counts the checkout page and its status per client address in the same bucket; its static assets are free', async () => {
    const api = apiClient(server.url, await server.merchant());
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
    const page = new URL(qr.body.checkout_url).pathname;
    const public_ = apiClient(server.url);
    const answers: ApiResponse[] = [];
    for (let i = 0; i < LIMIT; i++) answers.push(await public_.get(i % 2 ? `${page}/status` : page));
    expect(answers.map((res) => res.status)).toEqual(Array(LIMIT).fill(200));
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe(`"address";q=${LIMIT};w=1`);
    expect((await public_.get(`/Thai/qr-codes/${qr.body.qr_code_id}/image?format=svg`)).status).toBe(429); // one bucket with the image
    const asset = /src="(\/Thai\/pay\/assets\/[^"]+)"/.exec(answers[0]!.text)?.[1];
    expect(asset).toBeDefined();
    expect((await public_.get(asset!)).status).toBe(200);
    expect((await public_.get(page)).status).toBe(429);
    clock.advance(1000);
  });

  it('counts slips sent on the checkout page ("I have paid") in the same bucket, before the form is read', async () => {
    const api = apiClient(server.url, await server.merchant());
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
    const slip = `${new URL(qr.body.checkout_url).pathname}/slip`;
    const send = () => fetch(`${server.url}${slip}`, { method: 'POST', body: new FormData() });
    const answers: number[] = [];
    for (let i = 0; i < LIMIT; i++) answers.push((await send()).status);
    expect(answers).toEqual(Array(LIMIT).fill(403)); // no form token: refused by the page
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    clock.advance(1000);
  });
});

describe('RATE_LIMIT_PER_SECOND=0', () => {
  it('turns the limit and its headers off', async () => {
    const unlimited = await startTestServer({ clock, env: { RATE_LIMIT_PER_SECOND: '0' } });
    try {
      const api = apiClient(unlimited.url, await unlimited.merchant());
      const answers: ApiResponse[] = [];
      for (let i = 0; i < 3 * LIMIT; i++) answers.push(await api.get('/Thai/v1/payments?limit=1'));
      expect(answers.every((res) => res.status === 200 && res.headers.get('ratelimit') === null)).toBe(true);
    } finally {
      await unlimited.stop();
    }
  });
});
