import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
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
const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

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

  it("keeps another merchant's GET /payments/{id} under 5 times its median while one client fetches images 8 at a time", async () => {
    const other = apiClient(server.url, await server.merchant());
    const paymentOfOther = (await other.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' })).body.payment_id as string;
    const readPayment = async (): Promise<number> => {
      const started = performance.now();
      const res = await other.get(`/Thai/v1/payments/${paymentOfOther}`);
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    const readings = async (n: number): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) times.push(await readPayment());
      return times;
    };

    const imageUrls: string[] = [];
    for (let i = 0; i < 10; i++) imageUrls.push((await api.post('/Thai/v1/qr-codes', { amount: 15000 + i, currency: 'THB' })).body.qr_image_url);
    await readings(10); // warm
    const unloaded = median(await readings(40));

    // Every request a size not drawn before (1000, 999, ...): no cache helps, each one costs a full drawing.
    let size = 1000;
    let fetched = 0;
    let loading = true;
    const client = async () => {
      while (loading && size >= 200) {
        const url = `${imageUrls[size % imageUrls.length]}?size=${size--}`;
        await bytesOf(url);
        fetched++;
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, client));
    await new Promise((resolve) => setTimeout(resolve, 500)); // the 8 fetches under way
    const loaded = median(await readings(40));
    loading = false;
    await load;

    expect(fetched, 'images fetched during the readings').toBeGreaterThan(8);
    expect(loaded, `median ${loaded.toFixed(1)} ms under load vs ${unloaded.toFixed(1)} ms without (${fetched} images)`).toBeLessThan(5 * unloaded);
  }, 120_000);
});
