/**
 * database: PostgreSQL stops in the middle of a mixed load (QR generation, payment retrieval, lists, /readyz) and comes
 * back after a pause. Guarantees: while it is down every answer is 503 service_unavailable in the envelope (nothing
 * else, no dropped connection); the server never exits; it answers 2xx again by itself within seconds of the
 * database's return; its webhook dispatcher resumes (a QR code made after the return is delivered, and every
 * committed event is). Runs on a private throwaway cluster unless DRILL_PG=shared (see lib/cluster.ts).
 */
import { randomBytes } from 'node:crypto';
import { percentile, sleep, waitFor, type Drill } from './lib/harness.js';
import { privateCluster, sharedCluster } from './lib/cluster.js';
import { startDrillReceiver } from './lib/receiver.js';
import {
  call,
  closedLoop,
  createTestMerchant,
  envelopeViolation,
  inspect,
  QR_BODY,
  registerWebhook,
  scratchDatabase,
  startServer,
  type Reply,
} from './lib/service.js';
import { adminDatabaseUrl } from '../lib/postgres.js';

const RECOVERY_LIMIT_MS = 5_000;

interface Observation {
  kind: string;
  startedAt: number;
  endedAt: number;
  reply: Reply;
}

export const databaseDrill: Drill = {
  name: 'database',
  summary: 'PostgreSQL stops during load and returns: 503 envelope while down, no exit, recovery by itself',
  timeLimitMs: () => 180_000,
  async run(ctx) {
    const downMs = ctx.short ? 5_000 : 10_000;
    const cluster = process.env.DRILL_PG === 'shared' ? await sharedCluster(ctx, adminDatabaseUrl()) : await privateCluster(ctx);
    ctx.figure('PostgreSQL', cluster.description);
    const db = await scratchDatabase(ctx, cluster.adminUrl);
    const merchant = await createTestMerchant(db.url);
    const receiver = await startDrillReceiver(ctx);
    const server = await startServer(ctx, { databaseUrl: db.url, env: { WEBHOOK_TIMEOUT_MS: '1000' } });
    const webhook = await registerWebhook(server.base, merchant.apiKey, receiver.url);
    receiver.setSecret(webhook.secret);
    const apiKey = merchant.apiKey;
    const seed = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey, body: QR_BODY('db-seed') });
    const paymentId = seed.body.payment_id as string;
    const run = randomBytes(3).toString('hex');

    const observations: Observation[] = [];
    let stopped = false;
    let exitedAt: number | null = null;
    server.child.process.once('exit', () => void (exitedAt = Date.now()));
    const kinds = ['qr', 'qr', 'payment', 'transactions', 'readyz'] as const;
    const load = closedLoop(
      8,
      () => stopped,
      async (i) => {
        const kind = kinds[i % kinds.length]!;
        const startedAt = Date.now();
        const reply =
          kind === 'qr'
            ? await call(server.base, 'POST', '/Thai/v1/qr-codes', {
                apiKey,
                body: QR_BODY(`db-${run}-${i}`),
                idempotencyKey: `db-${run}-${i}`,
                timeoutMs: 20_000,
              })
            : kind === 'payment'
              ? await call(server.base, 'GET', `/Thai/v1/payments/${paymentId}`, { apiKey, timeoutMs: 20_000 })
              : kind === 'transactions'
                ? await call(server.base, 'GET', '/Thai/v1/transactions?limit=5', { apiKey, timeoutMs: 20_000 })
                : await call(server.base, 'GET', '/readyz', { timeoutMs: 20_000 });
        observations.push({ kind, startedAt, endedAt: Date.now(), reply });
        if (reply.status !== 200) await sleep(20);
      },
    );

    await sleep(3_000);
    const downAt = Date.now();
    await cluster.stop();
    const stoppedAt = Date.now();
    ctx.log(`PostgreSQL stopped (${stoppedAt - downAt} ms); waiting ${downMs / 1000} s`);
    await sleep(downMs);
    // Down ends when the restart begins: pg_ctl start -w notices readiness only by polling, so PostgreSQL may
    // already answer before start() returns.
    const restartAt = Date.now();
    await cluster.start();
    const upAt = Date.now();
    ctx.log(`PostgreSQL accepting connections again`);
    await sleep(8_000);
    stopped = true;
    await load;

    // While down: every request that started after the stop completed and ended before the restart began.
    const whileDown = observations.filter((o) => o.startedAt >= stoppedAt && o.endedAt <= restartAt);
    const statusesDown = new Map<string, number>();
    for (const o of whileDown) {
      const key = o.reply.status === 0 ? o.reply.text : `${o.reply.status} ${o.reply.body?.error?.code ?? (o.kind === 'readyz' ? '' : 'ok')}`.trim();
      statusesDown.set(key, (statusesDown.get(key) ?? 0) + 1);
    }
    const wrongDown = whileDown.filter((o) => !(o.reply.status === 503 && o.reply.body?.error?.code === 'service_unavailable'));
    ctx.figure(
      'requests before / while down / after',
      `${observations.filter((o) => o.endedAt < downAt).length} / ${whileDown.length} / ${observations.filter((o) => o.startedAt >= upAt).length}`,
    );
    ctx.figure('answers while down', [...statusesDown].map(([k, n]) => `${k}: ${n}`).join(', '));
    ctx.check(
      'answers while down other than 503 service_unavailable',
      wrongDown.length,
      whileDown.length > 0 && wrongDown.length === 0,
      `0 of ${whileDown.length}`,
    );
    for (const o of wrongDown.slice(0, 5)) ctx.note(`while down: ${o.kind} -> ${o.reply.status} ${o.reply.text.slice(0, 200)}`);
    const downLatency = whileDown.map((o) => o.reply.ms);
    ctx.figure('latency of answers while down p50 / max', `${percentile(downLatency, 50).toFixed(0)} / ${Math.max(0, ...downLatency).toFixed(0)} ms`);

    // Any time: nothing outside the envelope, no 5xx but 503, no dropped connection.
    const offEnvelope = observations.filter((o) => o.reply.status !== 0 && envelopeViolation(o.reply.status, o.reply.headers, o.reply.text, 'GET'));
    const otherFiveXx = observations.filter((o) => o.reply.status >= 500 && o.reply.status !== 503);
    const dropped = observations.filter((o) => o.reply.status === 0);
    ctx.check('responses outside the envelope', offEnvelope.length, offEnvelope.length === 0, '0');
    ctx.check('5xx other than 503 (whole run)', otherFiveXx.length, otherFiveXx.length === 0, '0');
    ctx.check('requests without an answer (reset, time-out)', dropped.length, dropped.length === 0, '0');
    for (const o of [...offEnvelope, ...otherFiveXx, ...dropped].slice(0, 5)) {
      ctx.note(`${o.kind} at ${o.startedAt - downAt} ms from the stop -> ${o.reply.status} ${o.reply.text.slice(0, 200)}`);
    }
    ctx.check('server process never exited', exitedAt === null && server.alive(), exitedAt === null && server.alive(), 'true');

    // Recovery: the first 2xx of a database request after the return, and nothing but 2xx a second later.
    const after = observations.filter((o) => o.startedAt >= upAt && o.kind !== 'readyz').sort((x, y) => x.endedAt - y.endedAt);
    const firstOk = after.find((o) => o.reply.status === 200);
    const recoveryMs = firstOk ? firstOk.endedAt - upAt : Number.POSITIVE_INFINITY;
    ctx.check(
      'recovered: first 2xx after PostgreSQL is back',
      firstOk ? `${recoveryMs} ms` : 'never',
      recoveryMs <= RECOVERY_LIMIT_MS,
      `<= ${RECOVERY_LIMIT_MS} ms`,
    );
    const settled = after.filter((o) => firstOk && o.startedAt > firstOk.endedAt + 1_000);
    const failingLater = settled.filter((o) => o.reply.status !== 200);
    ctx.check('non-2xx later than 1 s after recovery', failingLater.length, failingLater.length === 0, `0 of ${settled.length}`);
    for (const o of failingLater.slice(0, 3)) ctx.note(`after recovery: ${o.kind} -> ${o.reply.status} ${o.reply.text.slice(0, 200)}`);

    // Background work: the dispatcher's LISTEN connection and polling come back too.
    const freshAt = Date.now();
    const fresh = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey, body: QR_BODY('db-after') });
    const pg = await inspect(ctx, db.url);
    const freshEvent = await pg.query<{ id: string }>("SELECT id FROM events WHERE kind = 'payment.pending' AND payload::jsonb #>> '{data,payment_id}' = $1", [
      fresh.body?.payment_id,
    ]);
    const freshId = freshEvent.rows[0]?.id;
    const freshDelivery = await waitFor(() => (freshId ? receiver.delivered().has(freshId) : false), 15_000, 100);
    ctx.check(
      'webhook for a QR code made after the return',
      freshDelivery.ok ? `delivered ${Date.now() - freshAt} ms after the POST` : 'not delivered',
      freshDelivery.ok,
      'within 15 s',
    );
    const eventIds = (await pg.query<{ id: string }>('SELECT id FROM events')).rows.map((r) => r.id);
    const all = await waitFor(
      async () => {
        const delivered = receiver.delivered();
        if (!eventIds.every((id) => delivered.has(id))) return false;
        return (await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'")).rows[0]!.n === 0;
      },
      45_000,
      250,
    );
    const delivered = receiver.delivered();
    ctx.check('committed events delivered', `${eventIds.filter((id) => delivered.has(id)).length}/${eventIds.length}`, all.ok, 'all (within 45 s)');
    const unverified = receiver.arrivals.filter((a) => !a.verified).length;
    ctx.check('deliveries failing standardwebhooks verification', unverified, unverified === 0, '0');
    ctx.check('server alive at the end', server.alive(), server.alive(), 'true');
  },
};
