// Retries and time-outs against a loopback server that fails on purpose.
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, IdempotencyConflictError, PaymentDeclinedError, PaymentQrClient, RateLimitError, ValidationError, ApiError } from '../src/index.js';
import { RequestSender } from '../src/http.js';
import { apiError, startFlakyServer, type Behaviour, type FlakyServer } from './support/flaky-server.js';

const API_KEY = 'sk_test_flaky';
const qrCodeBody = { qr_code_id: 'qr_01JD3X7K9QH2M4T8V6W5R3N1BZ', payment_id: 'pay_1', status: 'pending' };
const ok: Behaviour = { status: 200, body: qrCodeBody };
const drop: Behaviour = { drop: true };
const hang: Behaviour = { hang: true };

let flaky: FlakyServer | undefined;
afterEach(async () => {
  await flaky?.close();
  flaky = undefined;
});

async function serve(...behaviours: Behaviour[]): Promise<FlakyServer> {
  flaky = await startFlakyServer(behaviours);
  return flaky;
}

/** A sender whose waits between attempts are recorded instead of slept. */
function senderFor(server: FlakyServer, options: { maxRetries?: number; timeout?: number } = {}) {
  const waits: number[] = [];
  const sender = new RequestSender({
    apiBaseUrl: `${server.url}/Thai/v1`,
    apiKey: API_KEY,
    timeout: options.timeout ?? 5_000,
    maxRetries: options.maxRetries ?? 2,
    fetch: (input, init) => globalThis.fetch(input, init),
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
  });
  const createQrCode = (requestOptions = {}) =>
    sender.request({ method: 'POST', path: 'qr-codes', body: { amount: 1_000, currency: 'THB' }, options: requestOptions });
  return { sender, waits, createQrCode };
}

const keysOf = (server: FlakyServer) => server.requests.map((r) => r.headers['idempotency-key']);

describe('retries through the public client (real back-off)', () => {
  it('retries a dropped connection twice with one Idempotency-Key, then returns the answer', async () => {
    const server = await serve(drop, drop, ok);
    const client = new PaymentQrClient({ apiKey: API_KEY, baseUrl: server.url });
    expect(await client.qrCodes.create({ amount: 1_000, currency: 'THB' })).toEqual(qrCodeBody);
    expect(server.requests).toHaveLength(3);
    const [key, ...others] = keysOf(server);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(others).toEqual([key, key]);
    expect(server.requests.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify({ amount: 1_000, currency: 'THB' })));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('gives a new key to each logical POST', async () => {
    const server = await serve(ok);
    const client = new PaymentQrClient({ apiKey: API_KEY, baseUrl: server.url });
    await client.qrCodes.create({ amount: 1_000, currency: 'THB' });
    await client.qrCodes.create({ amount: 1_000, currency: 'THB' });
    const [first, second] = keysOf(server);
    expect(first).not.toBe(second);
  });

  it('honours Retry-After on a 429', async () => {
    const server = await serve({ status: 429, body: apiError('rate_limited', 'rate_limit_error'), headers: { 'retry-after': '1' } }, ok);
    const client = new PaymentQrClient({ apiKey: API_KEY, baseUrl: server.url });
    const started = Date.now();
    await client.qrCodes.create({ amount: 1_000, currency: 'THB' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(keysOf(server)[1]).toBe(keysOf(server)[0]);
  });

  it('times out an attempt that hangs, retries it, and throws ConnectionError once retries run out', async () => {
    const server = await serve(hang, ok);
    const client = new PaymentQrClient({ apiKey: API_KEY, baseUrl: server.url, timeout: 200, maxRetries: 1 });
    expect(await client.qrCodes.create({ amount: 1_000, currency: 'THB' })).toEqual(qrCodeBody);
    expect(server.requests).toHaveLength(2);

    const stuck = await serve(hang);
    const impatient = new PaymentQrClient({ apiKey: API_KEY, baseUrl: stuck.url, timeout: 100, maxRetries: 1 });
    const error = await impatient.payments.retrieve('pay_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'timeout', type: 'connection_error', status: undefined });
    expect(stuck.requests).toHaveLength(2);
    await server.close();
  });

  it('stops at once when the caller aborts, even between retries', async () => {
    const server = await serve(drop);
    const client = new PaymentQrClient({ apiKey: API_KEY, baseUrl: server.url, maxRetries: 5 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shopper left')), 100);
    await expect(client.qrCodes.create({ amount: 1_000, currency: 'THB' }, { signal: controller.signal })).rejects.toThrow('shopper left');
    expect(server.requests.length).toBeLessThanOrEqual(2);
  });
});

describe('retry rules (waits recorded, not slept)', () => {
  it('throws ConnectionError after maxRetries dropped connections, with back-off between attempts', async () => {
    const server = await serve(drop);
    const { createQrCode, waits } = senderFor(server, { maxRetries: 3 });
    const error = await createQrCode().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_failed', status: undefined, requestId: undefined });
    expect(server.requests).toHaveLength(4);
    expect(new Set(keysOf(server)).size).toBe(1);
    expect(waits).toEqual([375, 750, 1_500]); // 500, 1000, 2000 ms, jittered by 0.75
  });

  it('retries 500 and 503, and the last error carries the API fields', async () => {
    const server = await serve(
      { status: 500, body: apiError('internal_error', 'api_error', 'req_a') },
      { status: 503, body: apiError('service_unavailable', 'api_error', 'req_b') },
    );
    const { createQrCode } = senderFor(server);
    const error = await createQrCode().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', type: 'api_error', requestId: 'req_b' });
    expect(server.requests).toHaveLength(3);
    expect(new Set(keysOf(server)).size).toBe(1);
  });

  it('retries 409 idempotency_key_in_use with the same key, and gets the first request\u2019s result', async () => {
    const server = await serve({ status: 409, body: apiError('idempotency_key_in_use', 'idempotency_error') }, ok);
    const { createQrCode } = senderFor(server);
    expect(await createQrCode({ idempotencyKey: 'order-42' })).toEqual(qrCodeBody);
    expect(keysOf(server)).toEqual(['order-42', 'order-42']);
  });

  it('does not retry 409 idempotency_key_reused, 400, 402 or 404', async () => {
    const cases: [Behaviour, unknown][] = [
      [{ status: 409, body: apiError('idempotency_key_reused', 'idempotency_error') }, IdempotencyConflictError],
      [{ status: 400, body: apiError('invalid_request', 'validation_error') }, ValidationError],
      [{ status: 402, body: apiError('card_declined', 'payment_error') }, PaymentDeclinedError],
    ];
    for (const [behaviour, errorClass] of cases) {
      const server = await serve(behaviour, ok);
      const { createQrCode, waits } = senderFor(server);
      await expect(createQrCode()).rejects.toBeInstanceOf(errorClass);
      expect(server.requests).toHaveLength(1);
      expect(waits).toEqual([]);
      await server.close();
    }
  });

  it('waits what Retry-After says when it is longer than the back-off, and gives up beyond a minute', async () => {
    const server = await serve({ status: 429, body: apiError('rate_limited', 'rate_limit_error'), headers: { 'retry-after': '7' } }, ok);
    const { createQrCode, waits } = senderFor(server);
    await createQrCode();
    expect(waits).toEqual([7_000]);

    const strict = await serve({ status: 429, body: apiError('rate_limited', 'rate_limit_error'), headers: { 'retry-after': '3600' } }, ok);
    const second = senderFor(strict);
    await expect(second.createQrCode()).rejects.toBeInstanceOf(RateLimitError);
    expect(strict.requests).toHaveLength(1);
    await server.close();
  });

  it('retries GETs without any Idempotency-Key, and honours a per-call maxRetries', async () => {
    const server = await serve({ status: 502, body: 'Bad gateway' });
    const { sender } = senderFor(server);
    const error = await sender.request({ method: 'GET', path: 'payments/pay_1', options: { maxRetries: 1 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'unexpected_response', raw: 'Bad gateway', requestId: 'req_flaky_2' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests.every((r) => r.method === 'GET' && r.headers['idempotency-key'] === undefined)).toBe(true);
  });

  it('refuses unknown request options', async () => {
    const server = await serve(ok);
    const client = new PaymentQrClient({ apiKey: API_KEY, baseUrl: server.url });
    const options = { idempotencyKey: 'k', retries: 3 } as never;
    await expect(client.qrCodes.create({ amount: 1_000, currency: 'THB' }, options)).rejects.toThrow(/Unknown request option 'retries'/);
    expect(server.requests).toHaveLength(0);
  });
});
