/**
 * images: one client fetches the public images of 50 QR codes at sizes 200 to 1000, 8 at a time, for 10 s (--short:
 * 4 s), while another merchant reads its payment (`GET /payments/{id}`) one request after the other. Guarantee: that
 * merchant's median stays under 5 times its median without the load, and under 250 ms (drawing runs on worker
 * threads, and each image is drawn once while kept). Then a shop posts slips as heavy as the limits allow (2 MiB of
 * noise, 4000 x 4000 pixels), 4 at a time, for as long: that merchant's median stays under 5 times its own or 100 ms
 * more (slips are decoded on worker threads, a bounded queue answering 503 beyond it).
 */
import { performance } from 'node:perf_hooks';
import { blankPng, noisePng } from '../lib/heavy-images.js';
import { ms, percentile, type Drill, type DrillContext } from './lib/harness.js';
import { call, closedLoop, createTestMerchant, QR_BODY, scratchDatabase, startServer } from './lib/service.js';

const QR_CODES = 50;
const CONCURRENCY = 8;
const READINGS_UNLOADED = 60;
const CEILING_MS = 250;

export const qrImagesDrill: Drill = {
  name: 'images',
  summary: "QR images fetched 8 at a time, then heavy slips posted 4 at a time: another merchant's GET /payments/{id} median under 5x its own",
  timeLimitMs: (short) => (short ? 90_000 : 150_000),
  async run(ctx) {
    const loadMs = ctx.short ? 4_000 : 10_000;
    const db = await scratchDatabase(ctx);
    const [a, b, shop] = [
      await createTestMerchant(db.url, 'Merchant A'),
      await createTestMerchant(db.url, 'Merchant B'),
      await createTestMerchant(db.url, 'Merchant C'),
    ];
    const server = await startServer(ctx, { databaseUrl: db.url, env: { METRICS: 'on' } });

    const images: string[] = [];
    for (let i = 0; i < QR_CODES; i++) {
      const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: a.apiKey, body: QR_BODY(`A-${i}`) });
      if (qr.status !== 200) throw new Error(`A's QR code: ${qr.status} ${qr.text}`);
      images.push(qr.body.qr_image_url);
    }
    const paymentOfB = (await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: b.apiKey, body: QR_BODY('B-1') })).body.payment_id as string;
    const read = async () => {
      const res = await call(server.base, 'GET', `/Thai/v1/payments/${paymentOfB}`, { apiKey: b.apiKey });
      if (res.status !== 200) throw new Error(`B's payment: ${res.status} ${res.text}`);
      return res.ms;
    };
    for (let i = 0; i < 10; i++) await read(); // warm
    const unloaded: number[] = [];
    for (let i = 0; i < READINGS_UNLOADED; i++) unloaded.push(await read());

    const ends = performance.now() + loadMs;
    const answers = new Map<number, number>();
    const load = closedLoop(
      CONCURRENCY,
      () => performance.now() >= ends,
      async () => {
        const size = 200 + Math.floor(Math.random() * 801);
        const url = `${images[Math.floor(Math.random() * images.length)]}?size=${size}${Math.random() < 0.2 ? '&format=svg' : ''}`;
        const res = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
        await res?.arrayBuffer();
        answers.set(res?.status ?? 0, (answers.get(res?.status ?? 0) ?? 0) + 1);
      },
    );
    const loaded: number[] = [];
    while (performance.now() < ends) loaded.push(await read());
    const fetched = await load;

    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    const served = (source: string) => metrics.match(new RegExp(`^pqr_qr_images_total\\{source="${source}"\\} (\\d+)`, 'm'))?.[1] ?? '?';
    const [base, median] = [percentile(unloaded, 50), percentile(loaded, 50)];
    ctx.figure(
      'image requests',
      `${fetched} in ${loadMs / 1000} s, ${CONCURRENCY} at a time`,
      [...answers].map(([status, n]) => `${n} x ${status}`).join(', '),
    );
    ctx.figure('images drawn / served from the cache', `${served('drawn')} / ${served('cache')}`);
    ctx.figure('B: GET /payments/{id} p50 / p99 without load', `${ms(base)} / ${ms(percentile(unloaded, 99))}`, `${unloaded.length} requests`);
    ctx.figure('B: GET /payments/{id} p50 / p99 under the image load', `${ms(median)} / ${ms(percentile(loaded, 99))}`, `${loaded.length} requests`);
    ctx.check("B's median under the load < 5 x its median without", `${(median / base).toFixed(1)} x`, median < 5 * base, '< 5 x');
    ctx.check(`B's median under the load < ${CEILING_MS} ms`, ms(median), median < CEILING_MS, `< ${CEILING_MS} ms`);
    ctx.check(
      'every image request answered 200 (or 503 when the drawing queue is full)',
      [...answers.keys()].join(', '),
      [...answers.keys()].every((s) => s === 200 || s === 503),
      '200 / 503',
    );
    await slipLoad(ctx, { base: server.base, shopKey: shop.apiKey, read, unloadedMedian: base, loadMs });
    ctx.check('server alive', server.alive(), server.alive(), 'true');
  },
};

const SLIP_LANES = 4;

/** A shop posting slips as heavy as the limits allow, 4 at a time, while `read` times another merchant's reads. */
async function slipLoad(
  ctx: DrillContext,
  { base, shopKey, read, unloadedMedian, loadMs }: { base: string; shopKey: string; read: () => Promise<number>; unloadedMedian: number; loadMs: number },
) {
  const heavy = [noisePng(), blankPng(4000)].map((png) => png.toString('base64'));
  const ends = performance.now() + loadMs;
  const answers = new Map<number, number>();
  const load = closedLoop(
    SLIP_LANES,
    () => performance.now() >= ends,
    async (i) => {
      const res = await call(base, 'POST', '/Thai/v1/slip-verifications', { apiKey: shopKey, body: { image: heavy[i % 2] }, timeoutMs: 30_000 });
      answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
    },
  );
  const loaded: number[] = [];
  while (performance.now() < ends) loaded.push(await read());
  const posted = await load;

  const median = percentile(loaded, 50);
  const bound = Math.max(5 * unloadedMedian, unloadedMedian + 100);
  ctx.figure(
    'heavy slips posted',
    `${posted} in ${loadMs / 1000} s, ${SLIP_LANES} at a time`,
    [...answers].map(([status, n]) => `${n} x ${status}`).join(', '),
  );
  ctx.figure('B: GET /payments/{id} p50 / p99 under the slip load', `${ms(median)} / ${ms(percentile(loaded, 99))}`, `${loaded.length} requests`);
  ctx.check("B's median under the slips < 5 x its median without, or + 100 ms", ms(median), median < bound, `< ${ms(bound)}`);
  ctx.check(
    'every heavy slip answered 422 (unreadable) or 503 (the decoding queue full)',
    [...answers.keys()].join(', '),
    [...answers.keys()].every((s) => s === 422 || s === 503),
    '422 / 503',
  );
}
