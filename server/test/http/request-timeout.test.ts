import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, requestHead, type RawAnswer } from '../support/raw-http.js';
import { apiClient } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { bankSettings, scbEnv } from '../support/bank.js';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';

// A short deadline keeps the test quick; what it checks is the answer, not how long it took.
let bank: BankSimulator;
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  bank = await startBankSimulator({ ...bankSettings });
  server = await startTestServer({ env: { REQUEST_BODY_TIMEOUT_MS: '100', ...scbEnv(bank) }, backgroundJobs: false });
  apiKey = (await server.merchant()).apiKey;
  await apiClient(server.url, { apiKey }).get('/Thai/v1/balance'); // the key is known: POST /qr-codes takes the hot lane
});
afterAll(async () => {
  await server.stop();
  await bank.stop();
});

/** Headers and one byte of a 100-byte body, then nothing: the connection stays open from this side. */
const stalled = (path: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
  rawExchange(server.url, requestHead('POST', path, { 'content-type': 'application/json', 'content-length': 100, connection: 'keep-alive', ...headers }) + '{');

function expectRequestTimeout(answer: RawAnswer): void {
  expect(answer.status).toBe(408);
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  const { error } = JSON.parse(answer.body);
  expect(error).toMatchObject({ code: 'request_timeout', type: 'api_error', request_id: answer.headers['request-id'] });
}

describe('a request body that does not arrive in time', () => {
  it.each([
    ['a hot route', '/Thai/v1/qr-codes'],
    ['a hot route under the legacy base', '/Thai/qr-codes'],
    ['an Express route', '/Thai/v1/refunds'],
    ['an Express route under the alias base', '/v1/webhooks'],
  ])('on %s answers 408 request_timeout and closes the connection', async (_name, path) => {
    const answer = await stalled(path, { authorization: `Bearer ${apiKey}` });
    expectRequestTimeout(answer);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('on the bank callback too', async () => {
    expectRequestTimeout(await stalled(`/bank/scb/confirmations/${bankSettings.callbackToken}`));
  });

  it('is never waited for without a valid key: 401 first', async () => {
    const answer = await rawExchange(server.url, requestHead('POST', '/Thai/v1/qr-codes', { 'content-type': 'application/json', 'content-length': 100 }) + '{');
    expect(answer.status).toBe(401);
  });
});
