import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { bankSettings, callbackUrlOf, scbEnv } from '../support/bank.js';
import { apiClient } from '../support/http.js';
import { rawExchange, requestHead } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Every line the server logs, as written (JSON), read from the stream its logger writes to. */
const lines: string[] = [];
let bank: BankSimulator;
let server: TestServer;

beforeAll(async () => {
  const stream = new PassThrough();
  let partial = '';
  stream.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop()!;
    lines.push(...complete);
  });
  bank = await startBankSimulator({ ...bankSettings });
  // A body must arrive within a second here, so that a stalled one is answered soon.
  server = await startTestServer({ env: { ...scbEnv(bank), REQUEST_BODY_TIMEOUT_MS: '1000' }, backgroundJobs: false, logger: pino({ level: 'info' }, stream) });
});
afterAll(async () => {
  await server.stop();
  await bank.stop();
});

/** The access-log line of the request with this id, once the server has written it. */
async function logLineOf(requestId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = lines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.requestId === requestId && entry.msg === 'request');
    if (line) return line;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const TOKEN = bankSettings.callbackToken;

describe('the bank callback token never appears in a log line', () => {
  it.each([
    ['a malformed body', '{"transactionId": '],
    ['a body over 1 MiB', `{"x":"${'a'.repeat(1_100_000)}"}`],
    ['a body the bank would not send', '{"unexpected": true}'],
  ])('%s: the path is logged masked', async (_name, body) => {
    const res = await fetch(callbackUrlOf(server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const line = await logLineOf(res.headers.get('request-id')!);
    expect(line).toMatchObject({ method: 'POST', path: '/bank/scb/confirmations/***', status: res.status });
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('nor does a wrong token, a wrong method, a body in another encoding or a stalled body', async () => {
    const answers = [
      await fetch(`${server.url}/bank/scb/confirmations/${TOKEN.slice(0, -1)}x`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      await fetch(callbackUrlOf(server.url), { method: 'GET' }),
      await fetch(callbackUrlOf(server.url), { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{}' }),
      await fetch(`${callbackUrlOf(server.url)}?${TOKEN}=1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await logLineOf(res.headers.get('request-id')!)).toMatchObject({ path: '/bank/scb/confirmations/***' });
    }
    const stalled = await rawExchange(
      server.url,
      requestHead('POST', `/bank/scb/confirmations/${TOKEN}`, { 'content-type': 'application/json', 'content-length': 10, connection: 'keep-alive' }) + '{',
    );
    expect(stalled.status).toBe(408);
    expect(await logLineOf(stalled.headers['request-id']!)).toMatchObject({ path: '/bank/scb/confirmations/***', status: 408 });
    // The request target in absolute form (RFC 9112 3.2.2), as a client talking to a proxy sends it: Express routes it by its path.
    const absolute = await rawExchange(
      server.url,
      requestHead('POST', `${callbackUrlOf(server.url)}?x=1`, { 'content-type': 'application/json', 'content-length': 2, connection: 'close' }) + '{}',
    );
    expect(await logLineOf(absolute.headers['request-id']!)).toMatchObject({ path: '/bank/scb/confirmations/***' });
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).not.toContain(TOKEN.slice(0, 20));
  });

  it('while other paths are logged as they are', async () => {
    const res = await apiClient(server.url).get('/Thai/v1/payments/pay_abc');
    expect(await logLineOf(res.headers.get('request-id')!)).toMatchObject({ method: 'GET', path: '/Thai/v1/payments/pay_abc', status: 401 });
  });
});
