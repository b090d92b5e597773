import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';
import { blankPng, noisePng } from '../../../scripts/lib/heavy-images.js';

const jsQR = jsQRModule.default;
const { server, api } = usingTestServer();

async function succeededPayment(client: ApiClient = api, amount = 15000): Promise<string> {
  const qr = await client.post('/Thai/v1/qr-codes', { amount, currency: 'THB' });
  expect((await client.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`, {})).status).toBe(200);
  return qr.body.payment_id as string;
}

/**
 * One request on a connection of its own (no keep-alive): under load this process may be busy for longer than the
 * server keeps an idle connection, and a pooled connection closed meanwhile would fail the request, not time it.
 */
function oneShot(path: string, apiKey: string, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${server.url}${path}`,
      {
        method: payload ? 'POST' : 'GET',
        agent: false,
        headers: { authorization: `Bearer ${apiKey}`, connection: 'close', ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the sandbox bank and the test helper', () => {
  it("writes a succeeded test payment's slip (payload and a PNG carrying it) that verifies once, then is a duplicate", async () => {
    const paymentId = await succeededPayment();
    const slip = await api.post(`/Thai/v1/test/payments/${paymentId}/slip`);
    expect(slip.status, slip.text).toBe(200);
    const png = PNG.sync.read(Buffer.from(slip.body.image, 'base64'));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(slip.body.payload);

    const verified = await api.post('/Thai/v1/slip-verifications', { payload: slip.body.payload, payment_id: paymentId, amount: 15000 });
    expect(verified.body).toMatchObject({ status: 'verified', payment_id: paymentId, amount: 15000 });
    const fromImage = await api.post('/Thai/v1/slip-verifications', { image: `data:image/png;base64,${slip.body.image}` });
    expect(fromImage.body).toMatchObject({ status: 'duplicate', payment_id: paymentId, first_verified_at: verified.body.created_at });
    expect((await api.get(`/Thai/v1/slip-verifications/${verified.body.slip_verification_id}`)).body).toEqual(verified.body);
  });

  it('has no slip for a pending payment, nor for a live key; another merchant reads no verification of this one', async () => {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' });
    expectEnvelope(await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/slip`), 400, 'invalid_parameters');
    const live = apiClient(server.url, await server.merchant({ mode: 'live' }));
    expectEnvelope(await live.post(`/Thai/v1/test/payments/${qr.body.payment_id}/slip`), 404, 'payment_not_found');

    const paymentId = await succeededPayment();
    const payload = (await api.post(`/Thai/v1/test/payments/${paymentId}/slip`)).body.payload;
    const verified = await api.post('/Thai/v1/slip-verifications', { payload });
    const stranger = apiClient(server.url, await server.merchant());
    expectEnvelope(await stranger.get(`/Thai/v1/slip-verifications/${verified.body.slip_verification_id}`), 404, 'slip_verification_not_found');
    expect((await stranger.post('/Thai/v1/slip-verifications', { payload })).body).toMatchObject({ status: 'duplicate', payment_id: null });
  });

  it('a payment_id of no payment of this merchant answers 404; a restricted key needs slips:write', async () => {
    const paymentId = await succeededPayment();
    const payload = (await api.post(`/Thai/v1/test/payments/${paymentId}/slip`)).body.payload;
    expectEnvelope(await api.post('/Thai/v1/slip-verifications', { payload, payment_id: 'pay_unknown' }), 404, 'payment_not_found');
    const merchant = await server.merchant();
    const counter = apiClient(server.url, { apiKey: await server.apiKey(merchant.id, ['slips:write']) });
    expect((await counter.post('/Thai/v1/slip-verifications', { payload })).body.status).toBe('wrong_receiver');
    const reader = apiClient(server.url, { apiKey: await server.apiKey(merchant.id, ['payments:read']) });
    expectEnvelope(await reader.post('/Thai/v1/slip-verifications', { payload }), 403, 'permission_denied');
  });
});

/** `length` random printable ASCII characters: text, but no base64 (it has spaces, quotes, punctuation). */
const noiseText = (length: number) => Array.from(randomBytes(length), (b) => String.fromCharCode(32 + (b % 95))).join('');

/** A POST whose body goes chunked (no Content-Length), as a client streaming a photo sends it. */
function chunkedPost(path: string, apiKey: string, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.slice(i, i + 64 * 1024));
    req.end();
  });
}

describe('image bounds', () => {
  const images = { noise: '', side4000: '', side4001: '', text: '', longText: '', hugeText: '' };
  beforeAll(async () => {
    // Drawn before any request: drawing blocks this process for seconds, and the keep-alive connections the server
    // closed meanwhile must be seen closed (the short wait) before the next request picks one.
    images.noise = noisePng().toString('base64');
    images.side4000 = blankPng(4000).toString('base64');
    images.side4001 = blankPng(4001).toString('base64');
    images.text = noiseText(2_700_000);
    images.longText = noiseText(2_796_205);
    images.hugeText = noiseText(5_000_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }, 120_000);

  it('refuses an image over 4000 x 4000 pixels unread, and one over 2 MiB', async () => {
    expectEnvelope(await api.post('/Thai/v1/slip-verifications', { image: images.side4001 }), 422, 'slip_unreadable');
    // Over 2 MiB the base64 is longer than the contract's maxLength: refused before it is decoded.
    const tooBig = Buffer.concat([Buffer.from(images.noise, 'base64'), randomBytes(64 * 1024)]);
    expectEnvelope(await api.post('/Thai/v1/slip-verifications', { image: tooBig.toString('base64') }), 400, 'invalid_request');
  });

  // #35: the kit saw such a request reset; the server answers it. The kit runs in the server's process, and drawing a
  // 2.8M-character string blocked both past the 5 s keep-alive timeout: the idle connection was closed under the request.
  it('several MB of text that is no base64 are answered in the envelope (400, or 413 over 3 MiB), and the connection serves on', async () => {
    const text = await api.post('/Thai/v1/slip-verifications', { image: images.text, amount: 15000 });
    expectEnvelope(text, 400, 'invalid_parameters');
    expect(text.body.error.param).toBe('image');
    expectEnvelope(await api.post('/Thai/v1/slip-verifications', { image: images.longText }), 400, 'invalid_request');
    expectEnvelope(await api.post('/Thai/v1/slip-verifications', { image: images.hugeText }), 413, 'payload_too_large');
    const chunked = await chunkedPost('/Thai/v1/slip-verifications', (await server.merchant()).apiKey, JSON.stringify({ image: images.hugeText }));
    expect(chunked.status).toBe(413);
    expect(chunked.body.error.code).toBe('payload_too_large');
    expect((await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' })).status).toBe(200);
  });

  // Whether another merchant's requests keep their speed meanwhile is measured by `npm run drill -- images`.
  it('2 MiB noise images and 4000 x 4000 images, four at a time, are answered within the limits, and the server serves on', async () => {
    const shop = await server.merchant();
    const heavy = [images.noise, images.side4000, images.noise, images.side4000];
    const answers = await Promise.all(heavy.map((image) => oneShot('/Thai/v1/slip-verifications', shop.apiKey, { image })));
    for (const status of answers) expect([422, 503]).toContain(status);
    expect((await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' })).status).toBe(200);
  });
});
