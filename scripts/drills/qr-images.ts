/**
 * images: one client fetches the public images of 50 QR codes at sizes 200 to 1000, 8 at a time, for 10 s (--short:
 * 4 s), while another merchant reads its payment (`GET /payments/{id}`) one request after the other. Guarantee: that
 * merchant's median stays under 5 times its median without the load, and under 250 ms (drawing runs on worker
 * threads, and each image is drawn once while kept).
 */
import { performance } from 'node:perf_hooks';
import { ms, percentile, type Drill } from './lib/harness.js';
import { call, closedLoop, createTestMerchant, QR_BODY, scratchDatabase, startServer } from './lib/service.js';

const QR_CODES = 50;
const CONCURRENCY = 8;
const READINGS_UNLOADED = 60;
const CEILING_MS = 250;

export const qrImagesDrill: Drill = {
  name: 'images',
  summary: "one client fetching QR images 8 at a time: another merchant's GET /payments/{id} median under 5x its own",
  timeLimitMs: (short) => (short ? 90_000 : 150_000),
  async run(ctx) {
    const loadMs = ctx.short ? 4_000 : 10_000;
    const db = await scratchDatabase(ctx);
    const [a, b] = [await createTestMerchant(db.url, 'Merchant A'), await createTestMerchant(db.url, 'Merchant B')];
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
    ctx.check('server alive', server.alive(), server.alive(), 'true');
  },
};
