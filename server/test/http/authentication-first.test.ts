import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiResponse } from '../support/http.js';
import { manualClock, startTestServer, usingTestServer } from '../support/test-server.js';

const FAILURES_PER_SECOND = 20;
const clock = manualClock(new Date('2026-11-24T09:00:00.000Z'));

const { server } = usingTestServer({ clock, env: { AUTH_FAILURE_LIMIT_PER_SECOND: String(FAILURES_PER_SECOND), RATE_LIMIT_PER_SECOND: '2' } });

const malformed = '{"amount": 15000, "currency": ';
const big = JSON.stringify({ amount: 15000, currency: 'THB', metadata: { note: 'x'.repeat(700_000) } });
const bodies: [string, string][] = [
  ['a malformed body', malformed],
  ['a 700 KB body', big],
  ['a 700 KB malformed body', big.slice(0, -2)],
  ['a body over 1 MiB', `{"n":"${'x'.repeat(1_200_000)}"}`],
];

describe('the merchant API authenticates before it reads a body', () => {
  // Each path in each lane: POST /qr-codes is a hot route, the others go through Express only.
  it.each(['/Thai/v1/qr-codes', '/v1/refunds', '/Thai/v1/webhooks'])('answers 401 to %s without a valid key, whatever the body', async (path) => {
    const api = apiClient(server.url);
    for (const [name, rawBody] of bodies) {
      for (const apiKey of [undefined, 'sk_test_unknown']) {
        const res = await api.post(path, undefined, { rawBody, apiKey });
        expectEnvelope(res, 401, 'authentication_failed');
        expect(res.headers.get('www-authenticate'), name).toBe('Bearer');
      }
    }
    clock.advance(1000); // the failed authentications above, forgotten
  });

  it('counts a request against its merchant before reading the body', async () => {
    const api = apiClient(server.url, await server.merchant());
    for (let i = 0; i < 2; i++) expect((await api.get('/Thai/v1/payments?limit=1')).status).toBe(200);
    for (const [, rawBody] of bodies) expectEnvelope(await api.post('/Thai/v1/qr-codes', undefined, { rawBody }), 429, 'rate_limit_exceeded');
    clock.advance(1000);
    expectEnvelope(await api.post('/Thai/v1/qr-codes', undefined, { rawBody: malformed }), 400, 'invalid_json'); // read once admitted
    clock.advance(1000);
  });
});

describe('failed authentications per client address', () => {
  const policy = `"authentication";q=${FAILURES_PER_SECOND};w=1`;

  it(`allows ${FAILURES_PER_SECOND} a second, then answers 429 with the rate-limit fields`, async () => {
    const anonymous = apiClient(server.url);
    const failed: ApiResponse[] = [];
    for (let i = 0; i < FAILURES_PER_SECOND; i++) failed.push(await anonymous.get('/Thai/v1/payments', { apiKey: i % 2 ? `sk_test_guess${i}` : undefined }));
    expect(failed.map((res) => res.status)).toEqual(Array(FAILURES_PER_SECOND).fill(401));
    expect(failed.map((res) => res.headers.get('ratelimit-policy'))).toEqual(Array(FAILURES_PER_SECOND).fill(policy));
    expect(failed.at(-1)!.headers.get('ratelimit')).toBe('"authentication";r=0;t=1');

    // Beyond: 429 on every path of the API, hot routes included, whatever the body.
    for (const [method, path] of [
      ['GET', '/Thai/v1/payments/pay_x'],
      ['POST', '/Thai/v1/qr-codes'],
      ['POST', '/v1/refunds'],
    ] as const) {
      const refused = await anonymous.send(method, path, undefined, { apiKey: 'sk_test_guess', rawBody: method === 'POST' ? malformed : undefined });
      expectEnvelope(refused, 429, 'rate_limit_exceeded');
      expect(refused.body.error.type).toBe('rate_limit_error');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('ratelimit-policy')).toBe(policy);
      expect(refused.headers.get('ratelimit')).toBe('"authentication";r=0;t=1');
      expect(refused.headers.get('cache-control')).toBe('no-store');
    }

    // One failure's worth refills in 1/20 s; a key checked a moment ago is never refused.
    clock.advance(1000 / FAILURES_PER_SECOND);
    expectEnvelope(await anonymous.get('/Thai/v1/payments'), 401, 'authentication_failed');
    expectEnvelope(await anonymous.get('/Thai/v1/payments'), 429, 'rate_limit_exceeded');
    clock.advance(1000);
  });

  it('leaves valid keys and public pages alone', async () => {
    const api = apiClient(server.url, await server.merchant());
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
    expect(qr.status).toBe(200);
    expect(qr.headers.get('ratelimit-policy')).toBe('"merchant";q=2;w=1');
    for (let i = 0; i < FAILURES_PER_SECOND + 1; i++) await apiClient(server.url).get('/Thai/v1/balance');
    expect((await api.get(`/Thai/v1/payments/${qr.body.payment_id}`)).status).toBe(200); // checked a moment ago
    expect((await apiClient(server.url).get(`/Thai/qr-codes/${qr.body.qr_code_id}/image?format=svg`)).status).toBe(200);
    clock.advance(1000);
  });

  it('is off with AUTH_FAILURE_LIMIT_PER_SECOND=0', async () => {
    const unlimited = await startTestServer({ clock });
    try {
      const anonymous = apiClient(unlimited.url);
      for (let i = 0; i < FAILURES_PER_SECOND + 5; i++) {
        const res = await anonymous.get('/Thai/v1/payments');
        expect(res.status).toBe(401);
        expect(res.headers.get('ratelimit')).toBeNull();
      }
    } finally {
      await unlimited.stop();
    }
  });
});
