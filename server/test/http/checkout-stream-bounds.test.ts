import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const STREAMS_PER_ADDRESS = 20;
let server: TestServer;
let shortLived: TestServer;

beforeAll(async () => {
  [server, shortLived] = await Promise.all([startTestServer(), startTestServer({ env: { CHECKOUT_STREAM_LIFETIME: '300ms' } })]);
});
afterAll(async () => {
  await Promise.all([server.stop(), shortLived.stop()]);
});

async function newQrCode(api: ApiClient) {
  const res = await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' });
  expect(res.status, res.text).toBe(200);
  return res.body as { qr_code_id: string; payment_id: string; checkout_url: string };
}

interface Stream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The `status` events read so far. */
  states: string[];
  /** The whole body once the server ends the response. */
  ended: Promise<string>;
  close(): void;
}

/** Opens a status stream from a loopback address of the test's choosing (the whole of 127.0.0.0/8 is loopback). */
function openStream(url: string, localAddress = '127.0.0.1'): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = get(url, { localAddress, headers: { accept: 'text/event-stream' } }, (response) => {
      let body = '';
      let unread = '';
      const states: string[] = [];
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, states, ended, close: () => request.destroy() });
      };
      const ended = new Promise<string>((done) => {
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
          unread += chunk.toString('utf8');
          for (let cut = unread.indexOf('\n\n'); cut >= 0; cut = unread.indexOf('\n\n')) {
            const data = /^data: (.*)$/m.exec(unread.slice(0, cut));
            unread = unread.slice(cut + 2);
            if (data) states.push((JSON.parse(data[1]!) as { status: string }).status);
          }
          if (response.statusCode !== 200 || states.length > 0) answer();
        });
        response.on('end', () => {
          answer();
          done(body);
        });
        response.on('error', () => done(body));
      });
    });
    request.on('error', reject);
  });
}

describe('GET /Thai/pay/{qr_code_id}/events: open streams per client address', () => {
  it(`keeps at most ${STREAMS_PER_ADDRESS} open per address: the next answers 429 in the envelope, other addresses still get theirs`, async () => {
    const api = apiClient(server.url, await server.merchant());
    const qr = await newQrCode(api);
    const events = `${qr.checkout_url}/events`;
    const open = await Promise.all(Array.from({ length: STREAMS_PER_ADDRESS }, () => openStream(events)));
    expect(open.map((s) => s.status)).toEqual(Array(STREAMS_PER_ADDRESS).fill(200));

    const refused = await openStream(events);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    const envelope = JSON.parse(await refused.ended);
    expect(envelope.error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error', request_id: refused.headers['request-id'] });
    expect(envelope.error.message).toMatch(/20/);

    const elsewhere = await openStream(events, '127.0.0.2');
    expect(elsewhere.status).toBe(200);
    elsewhere.close();

    // A page that goes away frees its place.
    open.pop()!.close();
    const again = await eventually(async () => {
      const stream = await openStream(events);
      if (stream.status !== 200) await stream.ended;
      return stream.status === 200 && stream;
    }, 'a stream once one of the 20 closed');
    open.push(again);

    // The payment's final status ends every stream, and their places are free again.
    await api.post(`/Thai/v1/test/payments/${qr.payment_id}/succeed`);
    await Promise.all(open.map((s) => s.ended));
    expect(open.every((s) => s.states.at(-1) === 'succeeded')).toBe(true);
    const fresh = await openStream(`${(await newQrCode(api)).checkout_url}/events`);
    expect(fresh.status).toBe(200);
    fresh.close();
  });
});

describe('GET /Thai/pay/{qr_code_id}/events: lifetime', () => {
  it('ends a stream after its lifetime (CHECKOUT_STREAM_LIFETIME) even while the payment is still pending', async () => {
    const api = apiClient(shortLived.url, await shortLived.merchant());
    const qr = await newQrCode(api);
    const stream = await openStream(`${qr.checkout_url}/events`);
    expect(stream.status).toBe(200);
    const ended = await Promise.race([stream.ended.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000))]);
    expect(ended).toBe(true);
    expect(stream.states).toEqual(['pending']);
    expect((await api.get(`/Thai/v1/payments/${qr.payment_id}`)).body.status).toBe('pending');
    expect(shortLived.running.checkoutHub.watchers).toBe(0);
  });
});
