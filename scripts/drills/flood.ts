/**
 * flood: merchant A's 16 webhook endpoints fail fast (8 refuse connections, 8 answer 500 at once) while A creates
 * QR codes at its rate limit (100 a second) for 30 s (--short: 8 s); merchant B creates a payment every 500 ms meanwhile.
 * Guarantee: each of B's deliveries arrives within 2 s of its QR code's creation, however large A's backlog grows
 * (the claim picks merchants before rows, so A's older due deliveries never fill the claim B's needs).
 */
import { performance } from 'node:perf_hooks';
import { freePort } from '../lib/processes.js';
import { ms, percentile, sleep, waitFor, type Drill } from './lib/harness.js';
import { startDrillReceiver } from './lib/receiver.js';
import { call, closedLoop, createTestMerchant, inspect, QR_BODY, registerWebhook, scratchDatabase, startServer } from './lib/service.js';

const ENDPOINTS_ANSWERING_500 = 8;
const ENDPOINTS_REFUSING = 8;
const RATE_LIMIT = 100;
const B_EVERY_MS = 500;
const TARGET_MS = 2_000;

export const floodDrill: Drill = {
  name: 'flood',
  summary: "16 failing endpoints of one merchant creating QR codes at its rate limit: another merchant's deliveries within 2 s",
  timeLimitMs: (short) => (short ? 90_000 : 180_000),
  async run(ctx) {
    const floodMs = ctx.short ? 8_000 : 30_000;
    const db = await scratchDatabase(ctx);
    const [a, b] = [await createTestMerchant(db.url, 'Merchant A'), await createTestMerchant(db.url, 'Merchant B')];
    const prompt = await startDrillReceiver(ctx, '/b');
    const failing = await startDrillReceiver(ctx, '/a');
    failing.mode = 'error';
    const refusedPort = await freePort(); // nothing listens there
    const server = await startServer(ctx, { databaseUrl: db.url, env: { RATE_LIMIT_PER_SECOND: String(RATE_LIMIT) } });

    for (let i = 0; i < ENDPOINTS_ANSWERING_500; i++) await registerWebhook(server.base, a.apiKey, `${failing.url}/${i}`, ['payment.pending']);
    for (let i = 0; i < ENDPOINTS_REFUSING; i++) await registerWebhook(server.base, a.apiKey, `http://127.0.0.1:${refusedPort}/a/${i}`, ['payment.pending']);
    prompt.setSecret((await registerWebhook(server.base, b.apiKey, prompt.url, ['payment.pending'])).secret);

    const ends = performance.now() + floodMs;
    let createdByA = 0;
    let limitedA = 0;
    const floodOfA = closedLoop(
      8,
      () => performance.now() >= ends,
      async (i) => {
        const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: a.apiKey, body: QR_BODY(`A-${i}`) });
        if (qr.status === 200) createdByA++;
        else if (qr.status === 429) {
          limitedA++;
          await sleep(Number(qr.headers.get('retry-after') ?? 1) * 1000);
        } else throw new Error(`A's QR code: ${qr.status} ${qr.text}`);
      },
    );

    const latencies: number[] = [];
    const waits: Promise<void>[] = [];
    await sleep(1_000); // A's backlog builds first
    for (let i = 0; performance.now() < ends; i++) {
      const sent = performance.now();
      const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: b.apiKey, body: QR_BODY(`B-${i}`) });
      if (qr.status !== 200) throw new Error(`B's QR code: ${qr.status} ${qr.text}`);
      const paymentId = qr.body.payment_id as string;
      waits.push(
        waitFor(() => prompt.arrivals.some((x) => x.paymentId === paymentId), 30_000, 5).then((arrived) => {
          latencies.push(arrived.ok ? performance.now() - sent : Number.POSITIVE_INFINITY);
        }),
      );
      await sleep(Math.max(0, B_EVERY_MS - (performance.now() - sent)));
    }
    await floodOfA;
    await Promise.all(waits);

    const client = await inspect(ctx, db.url);
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM webhook_deliveries WHERE merchant_id = $1 AND status = 'pending'", [a.id]);
    const worst = Math.max(...latencies);
    ctx.figure('flood', `${floodMs / 1000} s; A: ${createdByA} QR codes (${limitedA} answered 429), ${16 * createdByA} deliveries owed to failing endpoints`);
    ctx.figure("A's deliveries still pending at the end", rows[0]?.n ?? '?');
    ctx.figure("requests that reached A's endpoints answering 500", failing.arrivals.length);
    ctx.figure(
      'B: QR code created -> delivery received, p50 / p99 / max',
      `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} / ${ms(worst)}`,
      `${latencies.length} payments`,
    );
    ctx.check("B's deliveries within 2 s of their event", `${latencies.filter((l) => l <= TARGET_MS).length}/${latencies.length}`, worst <= TARGET_MS, 'all');
    ctx.check(
      "B's deliveries verified (standardwebhooks)",
      `${prompt.arrivals.filter((x) => x.verified).length}/${prompt.arrivals.length}`,
      prompt.arrivals.every((x) => x.verified),
      'all',
    );
    ctx.check('server alive', server.alive(), server.alive(), 'true');
  },
};
