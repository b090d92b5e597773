import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiResponse, type RequestOptions } from '../support/http.js';
import { histogramCounts } from '../support/metrics.js';
import { rawExchange, requestHead, type RawAnswer } from '../support/raw-http.js';
import { eventually } from '../support/receiver.js';
import { loggerInto } from '../support/log-lines.js';
import { manualClock, startTestServer, type TestServer } from '../support/test-server.js';
import { API_STEPS, type ApiStepName } from '../../src/adapters/http/api-pipeline.js';
import type { Permission } from '../../src/domain/permissions.js';

/**
 * The hot routes (src/adapters/http/hot-routes.ts) answer POST /qr-codes and GET /payments/{id} before Express. The
 * same requests must get the same answers with them on and off (HOT_ROUTES=off), whichever lane each one takes, and
 * the plain ones must really take the lane (its counter in /metrics says so).
 */
const clock = manualClock(new Date('2026-11-20T08:00:00.000Z')); // frozen: keys stay recently checked, times compare
const servers: Record<'on' | 'off', TestServer> = {} as never;
const keys: Record<'on' | 'off', string> = {} as never;
/** Restricted keys of each server's merchant: what each may do decides the answer on both lanes alike. */
const restrictedKeys = { reader: ['payments:read'], writer: ['qr_codes:write'], pos: ['qr_codes:write', 'payments:read'] } satisfies Record<
  string,
  Permission[]
>;
type Restricted = keyof typeof restrictedKeys;
const restricted: Record<'on' | 'off', Record<Restricted, string>> = { on: {} as never, off: {} as never };
/** What each server logged: its access-log lines. */
const logs: Record<'on' | 'off', Record<string, unknown>[]> = { on: [], off: [] };

beforeAll(async () => {
  // A body must arrive within a second; failed authentications are limited as in production.
  const env = { METRICS: 'on', RATE_LIMIT_PER_SECOND: '1000', REQUEST_BODY_TIMEOUT_MS: '1000', AUTH_FAILURE_LIMIT_PER_SECOND: '20' };
  [servers.on, servers.off] = await Promise.all([
    startTestServer({ clock, env, logger: loggerInto(logs.on) }),
    startTestServer({ clock, env: { ...env, HOT_ROUTES: 'off' }, logger: loggerInto(logs.off) }),
  ]);
  for (const lane of ['on', 'off'] as const) {
    const merchant = await servers[lane].merchant();
    keys[lane] = merchant.apiKey;
    for (const [name, permissions] of Object.entries(restrictedKeys))
      restricted[lane][name as Restricted] = await servers[lane].apiKey(merchant.id, permissions);
  }
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
});

/** What may differ between two servers: their ids, addresses and merchants. */
function normalized(res: ApiResponse): unknown {
  const headers = Array.from(res.headers as unknown as Iterable<[string, string]>, ([name]) => name)
    .filter((name) => !['date', 'keep-alive', 'connection', 'content-length'].includes(name))
    .sort();
  const text = res.text
    .replace(/\b(qr|pay|req|txn|evt|mch)_[0-9a-z]+/gi, '$1_ID')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'BASE')
    .replace(/0052[0-9A-Z]{20}|5[0-9]{1}\d{2}[0-9A-Z]{16,}6304[0-9A-F]{4}/g, 'QR');
  const fields = ['idempotent-replayed', 'ratelimit', 'ratelimit-policy', 'retry-after', 'allow', 'cache-control', 'x-content-type-options'];
  const error = (res.body as { error?: { request_id?: string } } | undefined)?.error;
  return {
    status: res.status,
    headers,
    requestIdEchoed: error ? error.request_id === res.headers.get('request-id') : null,
    ...Object.fromEntries(fields.map((name) => [name, res.headers.get(name)])),
    body: text.replace(/"qr_data":"[^"]+"/, '"qr_data":"QR"'),
  };
}

type Step = {
  name: string;
  method: 'GET' | 'POST' | 'HEAD' | 'PUT' | 'DELETE';
  path: string | ((paymentId: string) => string);
  body?: unknown;
  options?: RequestOptions;
  apiKey?: string;
  /** Sent with this restricted key of the lane's merchant. */
  restricted?: Restricted;
};

const qr = { amount: 150000, currency: 'THB' };
const STEPS: Step[] = [
  { name: 'a plain QR code', method: 'POST', path: '/Thai/v1/qr-codes', body: qr },
  {
    name: 'a full QR code under the alias base',
    method: 'POST',
    path: '/v1/qr-codes',
    body: { ...qr, reference: 'INV-1', expiry_minutes: 30, client_name: 'Somchai', client_bank_name: 'KBank', metadata: { order: 'A1' } },
  },
  { name: 'a QR code under the legacy base', method: 'POST', path: '/Thai/qr-codes', body: qr },
  { name: 'a keyed QR code', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, options: { idempotencyKey: 'hot-1' } },
  {
    name: 'its replay (the default expiry written out)',
    method: 'POST',
    path: '/Thai/v1/qr-codes',
    body: { ...qr, expiry_minutes: 15 },
    options: { idempotencyKey: 'hot-1' },
  },
  { name: 'the key reused for another body', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, amount: 100 }, options: { idempotencyKey: 'hot-1' } },
  { name: 'an empty Idempotency-Key', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, options: { idempotencyKey: '' } },
  {
    name: 'header and body keys that differ',
    method: 'POST',
    path: '/Thai/v1/qr-codes',
    body: { ...qr, idempotency_key: 'b' },
    options: { idempotencyKey: 'a' },
  },
  { name: 'an amount of the wrong type', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, amount: '150000' } },
  { name: 'an unknown field', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, colour: 'red' } },
  { name: 'an amount out of range', method: 'POST', path: '/Thai/v1/qr-codes', body: { ...qr, amount: 10 } },
  { name: 'a body that is not JSON', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '{"amount":' } },
  { name: 'a JSON scalar', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '150000' } },
  { name: 'JSON after a byte order mark', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '\uFEFF{"amount":150000,"currency":"THB"}' } },
  { name: 'a NUL in a string', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '{"amount":150000,"currency":"THB","reference":"a\\u0000b"}' } },
  {
    name: 'a body sent as text',
    method: 'POST',
    path: '/Thai/v1/qr-codes',
    options: { rawBody: JSON.stringify(qr), headers: { 'content-type': 'text/plain' } },
  },
  { name: 'a query string on the POST', method: 'POST', path: '/Thai/v1/qr-codes?x=1', body: qr },
  { name: 'an unknown key', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, apiKey: 'sk_test_unknown' },
  { name: 'the payment', method: 'GET', path: (id) => `/Thai/v1/payments/${id}` },
  { name: 'the payment under the alias base', method: 'GET', path: (id) => `/v1/payments/${id}` },
  { name: 'an unknown payment', method: 'GET', path: '/Thai/v1/payments/pay_unknown' },
  { name: 'an escaped id', method: 'GET', path: '/Thai/v1/payments/pay%00x' },
  { name: 'a query string', method: 'GET', path: (id) => `/Thai/v1/payments/${id}?expand=all` },
  { name: 'a trailing slash', method: 'GET', path: (id) => `/Thai/v1/payments/${id}/` },
  { name: 'no key', method: 'GET', path: (id) => `/Thai/v1/payments/${id}`, apiKey: '' },
  { name: 'an unknown key with a malformed body', method: 'POST', path: '/Thai/v1/qr-codes', options: { rawBody: '{"amount":' }, apiKey: 'sk_test_unknown' },
  {
    name: 'no key with a 700 KB body',
    method: 'POST',
    path: '/Thai/v1/qr-codes',
    options: { rawBody: `{"amount":150000,"currency":"THB","reference":"${'x'.repeat(700_000)}"}` },
    apiKey: '',
  },
  { name: 'HEAD of the payment', method: 'HEAD', path: (id) => `/Thai/v1/payments/${id}` },
  { name: 'HEAD of an unknown payment', method: 'HEAD', path: '/Thai/v1/payments/pay_unknown' },
  { name: 'a method the payment does not serve', method: 'DELETE', path: (id) => `/Thai/v1/payments/${id}` },
  { name: 'a method QR codes do not serve', method: 'PUT', path: '/Thai/v1/qr-codes', body: qr },
  { name: 'a QR code by a key that may only read payments', method: 'POST', path: '/Thai/v1/qr-codes', body: qr, restricted: 'reader' },
  { name: 'the payment by a key that may only make QR codes', method: 'GET', path: (id) => `/Thai/v1/payments/${id}`, restricted: 'writer' },
  { name: 'a QR code by a point-of-sale key', method: 'POST', path: '/v1/qr-codes', body: qr, restricted: 'pos' },
  { name: 'the payment by a point-of-sale key', method: 'GET', path: (id) => `/Thai/v1/payments/${id}`, restricted: 'pos' },
  {
    name: 'a malformed body by a key that may only read payments',
    method: 'POST',
    path: '/Thai/v1/qr-codes',
    options: { rawBody: '{"amount":' },
    restricted: 'reader',
  },
];

/** The tests below beside the big comparison of STEPS. */
const LATE_BODY = 'answer a body that does not arrive in time as Express does: 408, connection closed';
const FAILED_AUTHENTICATIONS = 'limit failed authentications per address as Express does, before reading a body';

/**
 * Where this file shows each step every API request takes (src/adapters/http/api-pipeline.ts) doing the same on both
 * lanes, by the cases that show it: a step added there must be named here.
 */
const STEP_PARITY: Record<ApiStepName, string[]> = {
  'client address': ['a plain QR code', 'the payment'], // the same address in the log lines
  'request id': ['a plain QR code', 'the payment', 'an unknown payment'], // Request-Id on every answer, echoed in error bodies
  'access log': ['a plain QR code', 'the payment'], // the same log lines
  metrics: ['a plain QR code', 'the payment', 'the payment by a key that may only make QR codes'], // the same latency series
  'no-store': ['a plain QR code', 'the payment'],
  'API key': ['an unknown key', 'no key', FAILED_AUTHENTICATIONS],
  'rate limit': ['a plain QR code', 'the payment', FAILED_AUTHENTICATIONS], // the same RateLimit fields, token by token
  permission: ['a QR code by a key that may only read payments', 'the payment by a key that may only make QR codes', 'a QR code by a point-of-sale key'],
  body: ['a body that is not JSON', 'JSON after a byte order mark', 'a NUL in a string', LATE_BODY],
};

async function hotRouteCount(server: TestServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find((f) => f.name === 'pqr_http_hot_route_requests_total');
  return Object.fromEntries(
    (family?.metrics ?? []).map((m) => [(m as { labels: { outcome: string } }).labels.outcome, Number((m as { value: string }).value)]),
  );
}

describe('the hot routes', () => {
  it('show every step of the API pipeline alike on both lanes', () => {
    expect(Object.keys(STEP_PARITY).sort()).toEqual([...API_STEPS].sort());
    const cases = new Set([...STEPS.map((step) => step.name), LATE_BODY, FAILED_AUTHENTICATIONS]);
    for (const [step, shownBy] of Object.entries(STEP_PARITY))
      expect(
        shownBy.filter((name) => !cases.has(name)),
        step,
      ).toEqual([]);
  });

  it('answer every request as Express does, and take the plain ones', async () => {
    const answers: Record<'on' | 'off', unknown[]> = { on: [], off: [] };
    for (const lane of ['on', 'off'] as const) {
      const api = apiClient(servers[lane].url, { apiKey: keys[lane] });
      await api.get('/Thai/v1/payments/pay_warm_up'); // the key is checked once through Express, then known
      for (const name of Object.keys(restrictedKeys) as Restricted[]) await api.get('/Thai/v1/payments/pay_warm_up', { apiKey: restricted[lane][name] });
      const first = await api.post('/Thai/v1/qr-codes', qr);
      for (const step of STEPS) {
        const path = typeof step.path === 'string' ? step.path : step.path(first.body.payment_id);
        const apiKey = step.restricted ? restricted[lane][step.restricted] : step.apiKey;
        const options = { ...step.options, ...(apiKey !== undefined ? { apiKey: apiKey || undefined } : {}) };
        if (step.apiKey === '') options.headers = { ...options.headers, authorization: '' };
        const res = await api.send(step.method, path, step.body, options);
        answers[lane].push({ step: step.name, ...(normalized(res) as object) });
      }
    }
    expect(answers.on).toEqual(answers.off);
    for (const answer of answers.on as Record<string, unknown>[]) {
      expect(answer.requestIdEchoed, String(answer.step)).not.toBe(false);
      expect(answer['x-content-type-options'], String(answer.step)).toBe('nosniff');
      expect(answer['cache-control'], String(answer.step)).toBe('no-store');
    }

    // The same log lines (the requests' paths and statuses) and the same latency series by method, route and status.
    const requests = 2 + Object.keys(restrictedKeys).length + STEPS.length;
    for (const lane of ['on', 'off'] as const)
      await eventually(() => logs[lane].filter((line) => line.msg === 'request').length === requests, `${lane}'s log lines`);
    const logged = (lane: 'on' | 'off') =>
      logs[lane]
        .filter((line) => line.msg === 'request')
        .map(({ client, method, path, status }) => `${String(client)} ${String(method)} ${String(path)} ${String(status)}`.replace(/pay_[0-9a-z]+/gi, 'pay_ID'))
        .sort();
    expect(logged('on')).toEqual(logged('off'));
    expect(logged('on')).toHaveLength(requests);
    const latency = async (lane: 'on' | 'off') =>
      (await histogramCounts(`${servers[lane].url}/metrics`, 'pqr_http_request_duration_seconds'))
        .map(({ labels, count }) => `${labels.method} ${labels.route} ${labels.status} ${count}`)
        .sort();
    expect(await latency('on')).toEqual(await latency('off'));

    // Taken (15): the first QR code, the three plain ones, the keyed one, its replay and its reuse, the differing keys and
    // the amount out of range (both refused by the handler), the BOM body, both retrievals, the unknown payment, and the
    // two requests of the point-of-sale key.
    // Passed on (20): the four warm-ups (keys not yet known), the empty key, the wrong type, the unknown field, the two
    // bodies that are not JSON objects, the NUL, the text body, the unknown key, the escaped id, the query string, no
    // key, the unknown and missing keys with bodies (never read), and the three requests of restricted keys that lack
    // the permission (refused by Express before any body is read). The POST with a query string, the trailing slash,
    // HEAD and the methods not served are not the hot routes' at all.
    expect(await hotRouteCount(servers.on)).toEqual({ taken: 15, passed_on: 20 });
    expect(await hotRouteCount(servers.off)).toEqual({});
  });

  it(LATE_BODY, async () => {
    const answers: Record<'on' | 'off', unknown> = { on: null, off: null };
    for (const lane of ['on', 'off'] as const) {
      const head = requestHead('POST', '/Thai/v1/qr-codes', {
        authorization: `Bearer ${keys[lane]}`,
        'content-type': 'application/json',
        'content-length': 40,
        connection: 'keep-alive',
      });
      const answer: RawAnswer = await rawExchange(servers[lane].url, `${head}{`); // resolves once the server has closed the connection
      const { date: _date, 'request-id': requestId, ...headers } = answer.headers;
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'request_timeout', request_id: requestId });
      answers[lane] = { status: answer.status, headers, body: answer.body.replace(/req_[0-9a-z]+/gi, 'req_ID') };
    }
    expect(answers.on).toEqual(answers.off);
    expect(answers.on).toMatchObject({ status: 408, headers: { connection: 'close', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });
  });

  it(FAILED_AUTHENTICATIONS, async () => {
    const answers: Record<'on' | 'off', unknown[]> = { on: [], off: [] };
    for (const lane of ['on', 'off'] as const) {
      const anonymous = apiClient(servers[lane].url, { apiKey: 'sk_test_guess' });
      for (let i = 0; i < 22; i++) answers[lane].push(normalized(await anonymous.get('/Thai/v1/payments/pay_x')));
      answers[lane].push(normalized(await anonymous.post('/Thai/v1/qr-codes', undefined, { rawBody: '{"amount":' })));
      answers[lane].push(normalized(await apiClient(servers[lane].url, { apiKey: keys[lane] }).get('/Thai/v1/payments/pay_x'))); // a known key goes on
    }
    expect(answers.on).toEqual(answers.off);
    const left = 20 - 4; // the first test's four failed authentications took their tokens (the clock never moves)
    expect(answers.on.map((answer) => (answer as { status: number }).status)).toEqual([...Array(22).fill(401).fill(429, left), 429, 404]);
  });
});
