import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/adapters/http/validation.js';
import { apiClient, expectEnvelope, type ApiResponse } from '../support/http.js';
import { rawExchange, requestHead } from '../support/raw-http.js';
import { usingTestServer } from '../support/test-server.js';

let qr: { payment_id: string; qr_code_id: string };

const { server, merchant, api } = usingTestServer({ env: { METRICS: 'on' } });
beforeAll(async () => {
  qr = (await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' })).body;
});

describe('X-Content-Type-Options: nosniff on every response', () => {
  it.each([
    ['an API answer', () => api.get('/Thai/v1/balance')],
    ['a hot route', () => api.get(`/Thai/v1/payments/${qr.payment_id}`)],
    ['a created QR code', () => api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' })],
    ['a 400', () => api.post('/Thai/v1/qr-codes', undefined, { rawBody: '{' })],
    ['a 401', () => apiClient(server.url).get('/Thai/v1/balance')],
    ['a 404 under the API', () => api.get('/Thai/v1/nothing-here')],
    ['a 404 elsewhere', () => api.get('/elsewhere')],
    ['a 405', () => api.send('PUT', '/Thai/v1/qr-codes', {})],
    ['the QR image', () => api.get(`/Thai/qr-codes/${qr.qr_code_id}/image?format=svg`)],
    ['the checkout page', () => api.get(`/Thai/pay/${qr.qr_code_id}`)],
    ['the checkout status', () => api.get(`/Thai/pay/${qr.qr_code_id}/status`)],
    ['the API reference', () => api.get('/docs')],
    ['the contract', () => api.get('/openapi.json')],
    ['health', () => api.get('/healthz')],
    ['metrics', () => api.get('/metrics')],
  ])('%s', async (_name, request) => {
    expect((await request()).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a request Node cannot parse', async () => {
    const answer = await rawExchange(server.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('Cache-Control: no-store on every merchant API response', () => {
  it.each([
    ['a list', () => api.get('/Thai/v1/payments?limit=1')],
    ['a hot retrieval', () => api.get(`/Thai/v1/payments/${qr.payment_id}`)],
    ['a hot creation under the legacy base', () => api.post('/Thai/qr-codes', { amount: 10000, currency: 'THB' })],
    ['a creation through Express', () => api.post('/v1/qr-codes', { amount: 10000, currency: 'THB' }, { headers: { 'content-encoding': 'identity' } })],
    ['a 400', () => api.get('/Thai/v1/payments?limit=0')],
    ['a 401', () => apiClient(server.url).get('/v1/balance')],
    ['a 404 under the API', () => api.get('/Thai/v1/nothing-here')],
    ['a 405 on an API path', () => api.delete('/Thai/v1/transactions')],
  ])('%s', async (_name, request) => {
    expect((await request()).headers.get('cache-control')).toBe('no-store');
  });

  it('while public pages keep their own caching', async () => {
    expect((await api.get(`/Thai/qr-codes/${qr.qr_code_id}/image`)).headers.get('cache-control')).toBe('private, max-age=60');
    expect((await api.get('/docs/assets/redoc.standalone.js')).headers.get('cache-control')).toBe('public, max-age=86400');
  });
});

/** The methods the contract serves at each path under each of its bases, HEAD wherever GET. */
function contractPaths(): { path: string; allow: string[] }[] {
  const spec = loadContract() as unknown as { servers: { url: string }[]; paths: Record<string, { servers?: { url: string }[] } & Record<string, unknown>> };
  const ids: Record<string, string> = {
    payment_id: 'pay_x',
    qr_code_id: 'qr_x',
    refund_id: 'rfd_x',
    webhook_id: 'wh_x',
    delivery_id: 'whd_x',
    event_id: 'evt_x',
    withdrawal_id: 'wd_x',
    callback_token: 'not-the-token',
  };
  return Object.entries(spec.paths).flatMap(([template, item]) => {
    const methods = ['get', 'post', 'patch', 'delete'].filter((m) => m in item).map((m) => m.toUpperCase());
    const allow = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    return (item.servers ?? spec.servers).map(({ url }) => ({
      path: new URL(url).pathname.replace(/\/$/, '') + template.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]!),
      allow,
    }));
  });
}

const allowOf = (res: ApiResponse): string[] =>
  (res.headers.get('allow') ?? '')
    .split(',')
    .map((m) => m.trim())
    .sort();

describe('405 method_not_allowed with Allow, from the contract', () => {
  it.each([
    ['PUT', '/Thai/v1/payments', 'GET, HEAD, POST'],
    ['DELETE', '/Thai/v1/refunds', 'POST'],
    ['GET', '/v1/qr-codes', 'POST'],
    ['OPTIONS', '/Thai/qr-codes', 'POST'],
    ['POST', `/Thai/v1/payments/pay_x`, 'GET, HEAD'],
    ['POST', '/Thai/qr-codes/qr_x/image', 'GET, HEAD'],
    ['POST', '/Thai/pay/qr_x', 'GET, HEAD'],
    ['DELETE', '/Thai/v1/webhooks/wh_x/secret', 'GET, HEAD'],
    ['PUT', '/Thai/v1/webhooks/wh_x', 'GET, HEAD, PATCH, DELETE'],
    ['GET', '/bank/scb/confirmations/not-the-token', 'POST'],
    ['POST', '/docs', 'GET, HEAD'],
    ['DELETE', '/openapi.yaml', 'GET, HEAD'],
  ])('%s %s', async (method, path, allow) => {
    const res = await api.send(method, path, method === 'GET' ? undefined : {});
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe(allow);
  });

  it('for every path the contract lists, under every base it is served at, with or without a key', async () => {
    const paths = contractPaths();
    expect(paths.length).toBeGreaterThan(40);
    for (const { path, allow } of paths) {
      for (const client of [api, apiClient(server.url)]) {
        const res = await client.send('PUT', path, {});
        expect(res.status, `PUT ${path}`).toBe(405);
        expect(allowOf(res), `PUT ${path}`).toEqual([...allow].sort());
      }
    }
  });
});

describe('HEAD wherever GET is served', () => {
  const auth = () => ({ authorization: `Bearer ${merchant.apiKey}` });
  it.each([
    ['a hot retrieval', () => `/Thai/v1/payments/${qr.payment_id}`, true],
    ['a list', () => '/v1/payments?limit=1', true],
    ['an unknown payment', () => '/Thai/v1/payments/pay_unknown', true],
    ['the QR image', () => `/Thai/qr-codes/${qr.qr_code_id}/image`, false],
    ['the checkout page', () => `/Thai/pay/${qr.qr_code_id}?lang=en`, false],
    ['the API reference', () => '/docs', false],
    ['the contract', () => '/openapi.yaml', false],
  ])('%s: the headers of GET, no body', async (_name, pathOf, withKey) => {
    const headers = withKey ? auth() : {};
    const get = await rawExchange(server.url, requestHead('GET', pathOf(), headers));
    const head = await rawExchange(server.url, requestHead('HEAD', pathOf(), headers));
    expect(head.status).toBe(get.status);
    expect(head.body).toBe('');
    expect(get.body.length).toBeGreaterThan(0);
    // A cookie's value is new on every answer (the checkout form's token); its name and attributes are compared.
    const sameCookie = ([name, value]: [string, string]): [string, string] => [name, name === 'set-cookie' ? value.replace(/=[^;]*/, '=…') : value];
    const comparable = (h: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(h)
          .filter(([name]) => !['date', 'request-id'].includes(name))
          .map(sameCookie),
      );
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
  });
});
