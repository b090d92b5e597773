import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { expectEnvelope } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

const { server, api } = usingTestServer();

// Cases found by the fuzz drill (scripts/drills/fuzz.ts): each once answered 500 or a bare status.
describe('hostile input gets a 4xx in the envelope', () => {
  it('a body that is not in its declared Content-Encoding', async () => {
    const res = await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' }, { headers: { 'content-encoding': 'gzip' } });
    expectEnvelope(res, 400, 'invalid_request');
  });

  it('malformed escapes in a path id', async () => {
    expectEnvelope(await api.get('/Thai/qr-codes/%ZZ/image'), 400, 'invalid_request');
    expectEnvelope(await api.get('/Thai/v1/payments/%C3%28'), 400, 'invalid_request');
  });

  it.each([
    ['/Thai/v1/payments/%00', 'payment_not_found'],
    ['/Thai/v1/refunds/a%00b', 'refund_not_found'],
    ['/Thai/v1/webhooks/%00/secret', 'webhook_not_found'],
    ['/Thai/qr-codes/qr_%00/image', 'qr_code_not_found'],
  ])('a NUL in the id of %s is an unknown id', async (path, code) => {
    expectEnvelope(await api.get(path), 404, code);
  });

  it.each([
    ['a lone surrogate', '{"amount":15000,"currency":"THB","metadata":{"note":"\\ud800"}}'],
    ['a lone surrogate in a key', '{"amount":15000,"currency":"THB","metadata":{"\\udc00":1}}'],
    ['a NUL', '{"amount":15000,"currency":"THB","reference":"A\\u0000B"}'],
    ['a number beyond double range', '{"amount":15000,"currency":"THB","metadata":{"n":1e999}}'],
    ['nesting 5,000 levels deep', `{"amount":15000,"currency":"THB","metadata":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`],
  ])('%s in the body, with or without an Idempotency-Key', async (_name, rawBody) => {
    expectEnvelope(await api.post('/Thai/v1/qr-codes', undefined, { rawBody }), 400, 'invalid_request');
    expectEnvelope(await api.post('/Thai/v1/qr-codes', undefined, { rawBody, idempotencyKey: 'hostile' }), 400, 'invalid_request');
  });

  it('accepts ordinary nesting and any valid Unicode', async () => {
    const res = await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB', reference: 'ร้านกาแฟ 😀', metadata: { a: { b: { c: [1, [2, [3]]] } } } });
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe('ร้านกาแฟ 😀');
  });

  it('a 20 KB query string is an ordinary bad request', async () => {
    const res = await api.get(`/Thai/v1/payments?x=${'a'.repeat(20_000)}`);
    expectEnvelope(res, 400, 'invalid_parameters');
  });

  it('headers over 64 KiB get 431 with the envelope and a Request-Id', async () => {
    const { port } = new URL(server.url);
    const { status, headers, body } = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: `/Thai/v1/payments?x=${'a'.repeat(70_000)}`, headers: { authorization: 'Bearer sk_test_x' } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body).error).toMatchObject({ code: 'invalid_request', type: 'validation_error', request_id: headers['request-id'] });
  });
});
