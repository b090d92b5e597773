/**
 * receiver: while payments are created, paid, failed, expired and refunded, the merchant's webhook endpoint goes
 * down (connection refused), comes back answering 500, then hangs past WEBHOOK_TIMEOUT_MS, then recovers.
 * Guarantees: every committed event arrives (answered 2xx), every request verifies with `standardwebhooks` and its
 * payload id equals webhook-id, no delivery ends `failed`. Retries of unanswered attempts and true duplicates
 * (an event sent again after a 2xx) are counted and reported.
 */
import { randomBytes } from 'node:crypto';
import { sleep, waitFor, type Drill } from './lib/harness.js';
import { startDrillReceiver } from './lib/receiver.js';
import { call, closedLoop, createTestMerchant, DRILL_ENV, inspect, QR_BODY, registerWebhook, scratchDatabase, startServer } from './lib/service.js';

export const receiverDrill: Drill = {
  name: 'receiver',
  summary: 'webhook receiver down, failing, hanging, then up: every event arrives signed, none lost',
  timeLimitMs: () => 180_000,
  async run(ctx) {
    const phaseMs = ctx.short ? 2_000 : 4_000;
    const db = await scratchDatabase(ctx);
    const merchant = await createTestMerchant(db.url);
    const receiver = await startDrillReceiver(ctx);
    // Enough attempts to outlast the outage (about 4 x phaseMs) with a wide margin: 14 attempts over 47 s.
    const schedule = `${DRILL_ENV.WEBHOOK_RETRY_SCHEDULE},5s,5s,5s,5s`;
    const server = await startServer(ctx, { databaseUrl: db.url, env: { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_SCHEDULE: schedule } });
    ctx.figure('retry schedule / time-out', `${schedule} / 1000 ms`);
    const webhook = await registerWebhook(server.base, merchant.apiKey, receiver.url);
    receiver.setSecret(webhook.secret);
    const apiKey = merchant.apiKey;
    const run = randomBytes(3).toString('hex');

    // Business activity that emits every kind of event.
    let stopped = false;
    const outcomes = new Map<string, number>();
    const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    const activity = closedLoop(
      3,
      () => stopped,
      async (i) => {
        const key = `rcv-${run}-${i}`;
        const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey, body: QR_BODY(key), idempotencyKey: key });
        if (qr.status !== 200) return void count(`qr ${qr.status}`);
        const id = qr.body.payment_id as string;
        const fate = i % 4;
        if (fate === 0) return void count('left pending');
        const action = fate === 1 ? 'fail' : fate === 2 ? 'expire' : 'succeed';
        const settled = await call(server.base, 'POST', `/Thai/v1/test/payments/${id}/${action}`, { apiKey });
        count(`${action} ${settled.status}`);
        if (action === 'succeed' && settled.status === 200) {
          const refund = await call(server.base, 'POST', '/Thai/v1/refunds', { apiKey, body: { payment_id: id, amount: i % 2 ? 5000 : 15000 } });
          count(`refund ${refund.status}`);
        }
        await sleep(50);
      },
    );

    const phases: [string, () => Promise<void>][] = [
      ['up', async () => receiver.up().then(() => void (receiver.mode = 'ok'))],
      ['down (refused)', () => receiver.down()],
      [
        'up, answering 500',
        async () => {
          receiver.mode = 'error';
          await receiver.up();
        },
      ],
      ['up, never answering', async () => void (receiver.mode = 'hang')],
      ['up, answering 200', async () => void (receiver.mode = 'ok')],
    ];
    const timeline: string[] = [];
    let recoveredAt = 0;
    for (const [i, [name, enter]] of phases.entries()) {
      await enter();
      recoveredAt = Date.now();
      const arrivedBefore = receiver.arrivals.length;
      await sleep(i === 1 ? phaseMs * 2 : phaseMs);
      timeline.push(`${name}: ${receiver.arrivals.length - arrivedBefore}`);
    }
    stopped = true;
    await activity;
    ctx.figure('activity', [...outcomes].map(([k, n]) => `${k}: ${n}`).join(', '));
    ctx.figure('requests reaching the receiver by phase', timeline.join('; '));

    const pg = await inspect(ctx, db.url);
    const eventIds = (await pg.query<{ id: string }>('SELECT id FROM events')).rows.map((r) => r.id);
    const done = await waitFor(
      async () => {
        const delivered = receiver.delivered();
        if (!eventIds.every((id) => delivered.has(id))) return false;
        return (await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'")).rows[0]!.n === 0;
      },
      90_000,
      250,
    );
    const delivered = receiver.delivered();
    const missing = eventIds.filter((id) => !delivered.has(id));
    const kinds = await pg.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM events GROUP BY kind ORDER BY kind');
    ctx.figure('events committed', eventIds.length, kinds.rows.map((r) => `${r.kind} ${r.n}`).join(', '));
    ctx.check('events delivered (2xx)', `${eventIds.length - missing.length}/${eventIds.length}`, missing.length === 0 && eventIds.length > 0, 'all');
    ctx.figure('time to drain after the receiver recovered', `${((Date.now() - recoveredAt) / 1000).toFixed(1)} s`, done.ok ? '' : 'did not drain');
    for (const id of missing.slice(0, 5)) ctx.note(`never delivered: ${id}`);
    const rows = await pg.query<{ status: string; n: number; max: number }>(
      'SELECT status, count(*)::int AS n, max(attempts)::int AS max FROM webhook_deliveries GROUP BY status ORDER BY status',
    );
    ctx.check(
      'delivery rows by status',
      rows.rows.map((r) => `${r.status}: ${r.n} (max ${r.max} attempts)`).join(', '),
      rows.rows.every((r) => r.status === 'delivered'),
      'all delivered, none failed',
    );
    const unverified = receiver.arrivals.filter((a) => !a.verified);
    const inconsistent = receiver.arrivals.filter((a) => !a.consistent);
    ctx.check('requests failing standardwebhooks verification', unverified.length, unverified.length === 0, `0 of ${receiver.arrivals.length}`);
    ctx.check('payload id != webhook-id', inconsistent.length, inconsistent.length === 0, '0');
    // Arrivals of an id after it had already been answered 2xx: true duplicates.
    const acked = new Set<string>();
    let duplicates = 0;
    let retries = 0;
    for (const a of receiver.arrivals) {
      if (acked.has(a.id)) duplicates++;
      else if (receiver.arrivals.indexOf(a) !== receiver.arrivals.findIndex((b) => b.id === a.id)) retries++;
      if (a.answered >= 200 && a.answered < 300) acked.add(a.id);
    }
    ctx.figure('requests received', receiver.arrivals.length, `${retries} retries of unanswered/failed attempts`);
    ctx.figure('duplicates (sent again after a 2xx)', duplicates, 'at least once: allowed, receivers drop them by webhook-id');
    ctx.check('server alive', server.alive(), server.alive(), 'true');
  },
};
