import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { usingTestServer } from '../support/test-server.js';

const jsQR = jsQRModule.default;
const { server, api } = usingTestServer();

describe('GET /Thai/qr-codes/{id}/image', () => {
  it('serves a PNG without an API key that decodes back to exactly qr_data', async () => {
    const qr = (await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB', reference: 'IMG-1' })).body;
    const res = await fetch(qr.qr_image_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    expect(png.width).toBe(300);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(qr.qr_data);
  });

  it('serves SVG and other sizes on request', async () => {
    const qr = (await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' })).body;
    const svg = await fetch(`${qr.qr_image_url}?format=svg`);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).toContain('<svg');
    const big = await fetch(`${qr.qr_image_url}?size=1000`);
    expect(PNG.sync.read(Buffer.from(await big.arrayBuffer())).width).toBe(1000);
  });

  it.each(['size=199', 'size=1001', 'size=big', 'format=gif'])('answers %s with 400 invalid_parameters', async (query) => {
    const qr = (await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' })).body;
    const res = await fetch(`${qr.qr_image_url}?${query}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_parameters');
  });

  it('answers 404 qr_code_not_found for an unknown id', async () => {
    const res = await fetch(`${server.url}/Thai/qr-codes/qr_${'0'.repeat(32)}/image`);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: 'qr_code_not_found', type: 'not_found' });
    expect(res.headers.get('request-id')).toBe(body.error.request_id);
  });
});
