import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { bankSettings, scbEnv } from '../support/bank.js';
import { rawExchange, requestHead, type RawAnswer } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * DECISIONS, "Every body has a deadline": the API's body deadline and 408 hold on every route that reads a body, the
 * pages' too (a slow body to the dashboard's sign-in stayed open 321 s), with a size fit for each. A short deadline
 * (REQUEST_BODY_TIMEOUT_MS, the setting production has) keeps the test quick; what it checks is the answer.
 */
let bank: BankSimulator;
let server: TestServer;

beforeAll(async () => {
  bank = await startBankSimulator({ ...bankSettings });
  server = await startTestServer({ env: { REQUEST_BODY_TIMEOUT_MS: '100', ...scbEnv(bank) }, backgroundJobs: false });
});
afterAll(async () => {
  await server.stop();
  await bank.stop();
});

/** Headers and one byte of a 100-byte body, then nothing: the connection stays open from this side. */
const stalled = (path: string, type: string): Promise<RawAnswer> =>
  rawExchange(
    server.url,
    requestHead('POST', path, { 'content-type': type, 'content-length': 100, connection: 'keep-alive', origin: server.url, cookie: 'dash_lang=en' }) +
      (type.includes('json') ? '{' : 'e'),
  );

const FORM = 'application/x-www-form-urlencoded';

describe('a body that does not arrive in time', () => {
  it.each([
    ['the dashboard sign-in, as a form', '/dashboard/login', FORM],
    ['the dashboard sign-in, as another type', '/dashboard/login', 'text/plain'],
    ['a signed-in dashboard form (no session needed to be cut off)', '/dashboard/settings/api-keys', FORM],
  ])('to %s answers 408 as a page and closes the connection', async (_name, path, type) => {
    const answer = await stalled(path, type);
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.body).toContain('The form did not arrive in time');
  });

  it.each([
    ['a checkout page form (a path of the page with no route today)', '/Thai/pay/qr_anything/form', FORM],
    ['a checkout page, JSON', '/Thai/pay/qr_anything/form', 'application/json'],
    ['the bank callback', `/bank/scb/confirmations/${bankSettings.callbackToken}`, 'application/json'],
  ])('to %s answers 408 request_timeout in the envelope and closes the connection', async (_name, path, type) => {
    const answer = await stalled(path, type);
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'request_timeout', type: 'api_error', request_id: answer.headers['request-id'] });
  });
});

/**
 * A body sent a byte at a time (every 20 ms, 400 bytes in all) until the server closes the connection: how many bytes
 * went before it did, and the answer's status line. Each byte keeps the connection from being idle.
 */
function trickle(path: string): Promise<{ sent: number; length: number; statusLine: string }> {
  const length = 400;
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let received = '';
    const socket = connect({ host: hostname, port: Number(port) }, () =>
      socket.write(requestHead('POST', path, { 'content-type': 'application/json', 'content-length': length, connection: 'keep-alive' })),
    );
    const timer = setInterval(() => {
      if (sent < length && socket.writable) socket.write('x', () => (sent += 1));
    }, 20);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ sent, length, statusLine: received.split('\r\n')[0] ?? '' });
    });
    socket.setTimeout(60_000, () => reject(new Error('the connection stayed open')));
  });
}

describe('a body no route waits for', () => {
  it.each([
    ['a method the checkout page does not serve (405)', '/Thai/pay/qr_anything', 405],
    ['the API without a key (401)', '/Thai/v1/qr-codes', 401],
    ['no route (404)', '/nowhere', 404],
  ])('to %s is answered at once, and the connection cut once the deadline passes, however the body trickles', async (_name, path, status) => {
    const { sent, length, statusLine } = await trickle(path);
    expect(statusLine).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(sent).toBeLessThan(length / 2); // cut long before the body could end (a deadline of 100 ms; 20 ms a byte)
  });
});

describe('a body larger than its route reads', () => {
  const post = (path: string, bytes: number) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: server.url, cookie: 'dash_lang=en' },
      body: `email=${'a'.repeat(bytes - 'email='.length)}`,
    });

  it('a dashboard form over 64 KiB answers 413 as a page; one of 64 KiB is read', async () => {
    const over = await post('/dashboard/login', 64 * 1024 + 1);
    expect(over.status).toBe(413);
    expect(await over.text()).toContain('This form is larger than 64 KiB');
    const within = await post('/dashboard/login', 64 * 1024);
    expect(within.status).not.toBe(413); // read, then refused as a sign-in
    expect(within.status).toBeLessThan(500);
  });

  it('a checkout body over 16 KiB answers 413 payload_too_large in the envelope', async () => {
    const over = await post('/Thai/pay/qr_anything/form', 16 * 1024 + 1);
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});
