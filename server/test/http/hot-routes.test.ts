import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiResponse, type RequestOptions } from '../support/http.js';
import { manualClock, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The hot routes (src/adapters/http/hot-routes.ts) answer POST /qr-codes and GET /payments/{id} before Express. The
 * same requests must get the same answers with them on and off (HOT_ROUTES=off), whichever lane each one takes, and
 * the plain ones must really take the lane (its counter in /metrics says so).
 */
const clock = manualClock(new Date('2026-11-20T08:00:00.000Z')); // frozen: keys stay recently checked, times compare
const servers: Record<'on' | 'off', TestServer> = {} as never;
const keys: Record<'on' | 'off', string> = {} as never;

beforeAll(async () => {
  const env = { METRICS: 'on', RATE_LIMIT_PER_SECOND: '1000' };
  [servers.on, servers.off] = await Promise.all([startTestServer({ clock, env }), startTestServer({ clock, env: { ...env, HOT_ROUTES: 'off' } })]);
  for (const lane of ['on', 'off'] as const) keys[lane] = (await servers[lane].merchant()).apiKey;
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
});

/** What may differ between two servers: their ids, addresses and merchants. */
function normalized(res: ApiResponse): unknown {
  const headers = Array.from(res.headers as unknown as Iterable<[string, string]>, ([name]) => name).filter((name) => !['date', 'keep-alive', 'connection', 'content-length'].includes(name)).sort();
  const text = res.text
    .replace(/\b(qr|pay|req|txn|evt|mch)_[0-9a-z]+/gi, '$1_ID')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'BASE')
    .replace(/0052[0-9A-Z]{20}|5[0-9]{1}\d{2}[0-9A-Z]{16,}6304[0-9A-F]{4}/g, 'QR');
  return { status: res.status, headers, idempotentReplayed: res.headers.get('idempotent-replayed'), rateLimit: res.headers.get('ratelimit'), body: text.replace(/"qr_data":"[^"]+"/, '"qr_data":"QR"') };
}

type Step = { name: string; method: 'GET' | 'POST'; path: string | ((paymentId: string) => string); body?: unknown; options?: RequestOptions; apiKey?: string };

const qr = { amount: 150000, currency: 'THB' };
const STEPS: Step[] = [
  { name: 'a plain QR code', method: 'POST', path: '/Thai/v1/qr-codes', body: qr },
  { name: 'a full QR code under the alias base', method: 'POST', path: '/v1/qr-codes', body: { ...qr, reference: 'INV-1', expiry_minutes: 30, client_name: 'Somchai', client_bank_name: 'KBank', metadata: { order: 'A1' } } },
  { name: 'a QR code under the legacy base', method: 'POST', path: '/Thai/qr-codes', body: qr },
  { name: 'a keyed QR code', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, options: { idempotencyKey: 'hot-1' } },
  { name: 'its replay (the default expiry written out)', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, expiry_minutes: 15 }, options: { idempotencyKey: 'hot-1' } },
  { name: 'the key reused for another body', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, amount: 100 }, options: { idempotencyKey: 'hot-1' } },
  { name: 'an empty Idempotency-Key', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, options: { idempotencyKey: '' } },
  { name: 'header and body keys that differ', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, idempotency_key: 'b' }, options: { idempotencyKey: 'a' } },
  { name: 'an amount of the wrong type', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, amount: '150000' } },
  { name: 'an unknown field', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, colour: 'red' } },
  { name: 'an amount out of range', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, amount: 10 } },
  { name: 'a body that is not JSON', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '{"amount":' } },
  { name: 'a JSON scalar', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '150000' } },
  { name: 'JSON after a byte order mark', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '\uFEFF{"amount":150000,"currency":"THB"}' } },
  { name: 'a NUL in a string', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '{"amount":150000,"currency":"THB","reference":"a\\u0000b"}' } },
  { name: 'a body sent as text', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: JSON.stringify(qr), headers: { 'content-type': 'text/plain' } } },
  { name: 'a query string on the POST', method: 'POST', path: '/Thai/v1/qr-codes?x=1', body: qr },
  { name: 'an unknown key', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, apiKey: 'sk_test_unknown' },
  { name: 'the payment', method: 'GET', path: (id) => `/Thai/v1/payments/${id}` },
  { name: 'the payment under the alias base', method: 'GET', path: (id) => `/v1/payments/${id}` },
  { name: 'an unknown payment', method: 'GET', path: '/Thai/v1/payments/pay_unknown' },
  { name: 'an escaped id', method: 'GET', path: '/Thai/v1/payments/pay%00x' },
  { name: 'a query string', method: 'GET', path: (id) => `/Thai/v1/payments/${id}?expand=all` },
  { name: 'a trailing slash', method: 'GET', path: (id) => `/Thai/v1/payments/${id}/` },
  { name: 'no key', method: 'GET', path: (id) => `/Thai/v1/payments/${id}`, apiKey: '' },
];

async function hotRouteCount(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find((f) => f.name === 'pqr_http_hot_route_requests_total');
  return Object.fromEntries((family?.metrics ?? []).map((m) => [(m as { labels: { outcome: string } }).labels.outcome, Number((m as { value: string }).value)]));
}

describe('the hot routes', () => {
  it('answer every request as Express does, and take the plain ones', async () => {
    const answers: Record<'on' | 'off', unknown[]> = { on: [], off: [] };
    for (const lane of ['on', 'off'] as const) {
      const api = apiClient(servers[lane].url, { apiKey: keys[lane] });
      await api.get('/Thai/v1/payments/pay_warm_up'); // the key is checked once through Express, then known
      const first = await api.post('/Thai/v1/qr-codes', qr);
      for (const step of STEPS) {
        const path = typeof step.path === 'string' ? step.path : step.path(first.body.payment_id);
        const options = { ...step.options, ...(step.apiKey !== undefined ? { apiKey: step.apiKey || undefined } : {}) };
        if (step.apiKey === '') options.headers = { ...options.headers, authorization: '' };
        const res = await api.send(step.method, path, step.body, options);
        answers[lane].push({ step: step.name, ...(normalized(res) as object) });
      }
    }
    expect(answers.on).toEqual(answers.off);

    // Taken (13): the first QR code, the three plain ones, the keyed one, its replay and its reuse, the differing keys and
    // the amount out of range (both refused by the handler), the BOM body, both retrievals and the unknown payment.
    // Passed on (12): the warm-up (key not yet known), the empty key, the wrong type, the unknown field, the two bodies
    // that are not JSON objects, the NUL, the text body, the unknown key, the escaped id, the query string, no key.
    // The POST with a query string and the trailing slash are not the hot routes' paths at all.
    expect(await hotRouteCount(servers.on)).toEqual({ taken: 13, passed_on: 12 });
    expect(await hotRouteCount(servers.off)).toEqual({});
  });
});
