/**
 * fairness: merchant A has 16 webhook endpoints that accept requests and never answer, and more events owed to them
 * than the dispatcher has slots; merchant B then creates payments. Guarantee: each of B's deliveries arrives within
 * 2 s of its event, while every request to A's endpoints is still hanging (the send time-out is set far beyond the
 * drill, so only the dispatcher keeping room for other merchants explains B's arrivals).
 */
import { performance } from 'node:perf_hooks';
import { ms, percentile, waitFor, type Drill } from './lib/harness.js';
import { startDrillReceiver } from './lib/receiver.js';
import { call, createTestMerchant, QR_BODY, registerWebhook, scratchDatabase, startServer } from './lib/service.js';

const ENDPOINTS_OF_A = 16;
// 17 x 16 = 272 deliveries owed to A at once: more than the dispatcher's 256 slots.
const PAYMENTS_OF_A = 17;
const TARGET_MS = 2_000;

export const fairnessDrill: Drill = {
  name: 'fairness',
  summary: "16 hanging endpoints of one merchant: another merchant's deliveries still arrive within 2 s",
  timeLimitMs: () => 90_000,
  async run(ctx) {
    const paymentsOfB = ctx.short ? 5 : 20;
    const db = await scratchDatabase(ctx);
    const [a, b] = [await createTestMerchant(db.url, 'Merchant A'), await createTestMerchant(db.url, 'Merchant B')];
    const prompt = await startDrillReceiver(ctx, '/b');
    const hanging = await startDrillReceiver(ctx, '/a'); // ends A's hanging requests before the server stops
    hanging.mode = 'hang';
    const server = await startServer(ctx, { databaseUrl: db.url, env: { WEBHOOK_TIMEOUT_MS: '600000' } });
    ctx.figure('send time-out', '600 s (no hanging request ends during the drill)');

    for (let i = 0; i < ENDPOINTS_OF_A; i++) await registerWebhook(server.base, a.apiKey, `${hanging.url}/${i}`);
    prompt.setSecret((await registerWebhook(server.base, b.apiKey, prompt.url)).secret);
    for (let i = 0; i < PAYMENTS_OF_A; i++) {
      const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: a.apiKey, body: QR_BODY(`A-${i}`) });
      if (qr.status !== 200) throw new Error(`A's QR code: ${qr.status} ${qr.text}`);
    }
    const owed = ENDPOINTS_OF_A * PAYMENTS_OF_A;
    const started = await waitFor(() => hanging.arrivals.length >= ENDPOINTS_OF_A, 30_000);
    if (!started.ok) throw new Error(`only ${hanging.arrivals.length} requests reached A's endpoints`);

    const latencies: number[] = [];
    for (let i = 0; i < paymentsOfB; i++) {
      const before = prompt.arrivals.length;
      const sent = performance.now();
      const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: b.apiKey, body: QR_BODY(`B-${i}`) });
      if (qr.status !== 200) throw new Error(`B's QR code: ${qr.status} ${qr.text}`);
      const arrived = await waitFor(() => prompt.arrivals.length > before, 10_000, 5);
      latencies.push(arrived.ok ? performance.now() - sent : Number.POSITIVE_INFINITY);
    }
    const answeredAtA = hanging.arrivals.filter((arrival) => arrival.answered !== 0).length;

    ctx.figure("A's endpoints / deliveries owed to them", `${ENDPOINTS_OF_A} / ${owed}`);
    ctx.figure("requests hanging at A's endpoints", hanging.arrivals.length, 'at most its share of the slots');
    const worst = Math.max(...latencies);
    ctx.figure('B: QR code created -> delivery received, p50 / max', `${ms(percentile(latencies, 50))} / ${ms(worst)}`, `${paymentsOfB} payments`);
    ctx.check(
      "B's deliveries within 2 s of their event",
      `${latencies.filter((l) => l <= TARGET_MS).length}/${paymentsOfB}`,
      worst <= TARGET_MS,
      `${paymentsOfB}/${paymentsOfB}`,
    );
    ctx.check(
      "B's deliveries verified (standardwebhooks)",
      `${prompt.arrivals.filter((x) => x.verified).length}/${prompt.arrivals.length}`,
      prompt.arrivals.every((x) => x.verified),
      'all',
    );
    ctx.check("A's requests answered or timed out meanwhile", answeredAtA, answeredAtA === 0, '0: all still hanging');
    ctx.check('server alive', server.alive(), server.alive(), 'true');
  },
};
