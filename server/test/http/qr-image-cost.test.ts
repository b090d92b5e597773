import { describe, expect, it } from 'vitest';
import { scrape, valueOf } from '../support/metrics.js';
import { usingTestServer } from '../support/test-server.js';

const { server, api } = usingTestServer({ env: { METRICS: 'on' } });

const imagesServed = async () => {
  const families = await scrape(`${server.url}/metrics`);
  return { drawn: valueOf(families, 'pqr_qr_images_total', { source: 'drawn' }), cache: valueOf(families, 'pqr_qr_images_total', { source: 'cache' }) };
};
const bytesOf = async (url: string): Promise<Buffer> => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};

describe('the public QR image costs little', () => {
  it('draws each image (QR code, size, format) once and serves the same bytes after', async () => {
    const qr = (await api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' })).body;
    const before = await imagesServed();

    const first = await Promise.all([1, 2, 3].map(() => bytesOf(`${qr.qr_image_url}?size=777`)));
    const again = await bytesOf(`${qr.qr_image_url}?size=777`);
    const svg = await bytesOf(`${qr.qr_image_url}?size=777&format=svg`);
    const otherSize = await bytesOf(`${qr.qr_image_url}?size=778`);

    for (const image of [...first, again]) expect(image.equals(first[0]!)).toBe(true);
    expect(svg.toString('utf8')).toContain('<svg');
    expect(otherSize.equals(first[0]!)).toBe(false);
    const after = await imagesServed();
    // Three PNGs asked for at once and one after: one drawing; the SVG and the other size are other images.
    expect(after.drawn - before.drawn).toBe(3);
    expect(after.cache - before.cache).toBe(3);
  });
});
