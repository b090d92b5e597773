/**
 * Webhook delivery benchmark: the real server and dispatcher, a loopback receiver that verifies every signature.
 *   node --import tsx scripts/bench/webhooks.ts            (embedded in-memory PGlite)
 *   DATABASE_URL=postgres://... node --import tsx ...      (a scratch database is created on that server and dropped)
 * Measures (1) completion -> receipt latency over sequential payments, (2) deliveries/s draining 1,000 pending events.
 */
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { createQrCode } from '../../server/src/app/create-qr-code.js';
import { createMerchant } from '../../server/src/app/merchants.js';
import { loadConfig } from '../../server/src/config.js';
import { startBackgroundWork, startServer } from '../../server/src/main.js';
import type { ReceiverCommand, ReceiverMessage } from './webhook-receiver.js';

const LATENCY_PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 200);
const WARM_UP = 10;
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 1000);

async function scratchDatabase(adminUrl: string | undefined) {
  if (!adminUrl) return { url: null, drop: async () => undefined };
  const name = `pqr_bench_webhooks_${randomBytes(5).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Starts the receiver process; arrivals are kept by webhook-id, first arrival wins. */
async function startReceiver() {
  const child = fork(fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url)), { execArgv: ['--import', 'tsx'] });
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  let unverified = 0;
  const port = await new Promise<number>((resolve) =>
    child.on('message', (message: ReceiverMessage) => {
      if (message.type === 'ready') return resolve(message.port);
      if (!message.verified) unverified++;
      if (!arrivals.has(message.id)) arrivals.set(message.id, message.at);
      waiters.get(message.paymentId)?.(message.at);
    }),
  );
  return {
    origin: `http://127.0.0.1:${port}`,
    arrivals,
    unverified: () => unverified,
    verifyWith: (path: string, secret: string) => child.send({ type: 'secret', path, secret } satisfies ReceiverCommand),
    arrivalOf: (paymentId: string) => new Promise<number>((resolve) => waiters.set(paymentId, resolve)),
    close: () => {
      child.disconnect();
      return new Promise<void>((resolve) => child.once('exit', () => resolve()));
    },
  };
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const clockMs = () => performance.timeOrigin + performance.now();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main(): Promise<void> {
  const database = await scratchDatabase(process.env.DATABASE_URL);
  const receiver = await startReceiver();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    WEBHOOK_DISPATCHER: 'off', // started by hand once the backlog is in place
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    RATE_LIMIT_PER_SECOND: '0',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const running = await startServer(config, { logger: pino({ level: 'silent' }) });
  const { services } = running.runtime;
  let stopDispatcher: (() => Promise<void>) | null = null;
  try {
    const { merchant, apiKey } = await createMerchant(services, { name: 'Bench merchant', mode: 'test', account: { kind: 'promptpay_id', id: '0812345678' } });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, string>;
    };
    const register = async (path: string, events: string[]) => {
      const { webhook_id } = await api('POST', '/Thai/v1/webhooks', { url: `${receiver.origin}${path}`, events });
      receiver.verifyWith(path, (await api('GET', `/Thai/v1/webhooks/${webhook_id}/secret`)).secret!);
      return webhook_id!;
    };

    // (2) Throughput: BACKLOG pending deliveries committed while no dispatcher runs, then drained.
    const backlogHook = await register('/backlog', ['payment.pending']);
    for (let i = 0; i < BACKLOG; i++) await services.uow.run((tx) => createQrCode(tx, services, merchant, { amount: 10_000 + i, currency: 'THB' }));
    const drainStart = clockMs();
    stopDispatcher = startBackgroundWork(running.runtime);
    while (receiver.arrivals.size < BACKLOG) await new Promise((resolve) => setTimeout(resolve, 5));
    const lastArrival = Math.max(...receiver.arrivals.values());
    const count = async () =>
      Number((await running.runtime.db.knex('webhook_deliveries').where({ status: 'delivered' }).count<{ c: number }[]>({ c: '*' }))[0]?.c);
    while ((await count()) < BACKLOG) await new Promise((resolve) => setTimeout(resolve, 5));
    const drainRecorded = clockMs();
    await api('DELETE', `/Thai/v1/webhooks/${backlogHook}`);

    // (1) Latency: one payment at a time, from the moment its completion is requested to receipt.
    await register('/latency', ['payment.succeeded']);
    const latencies: number[] = [];
    for (let i = 0; i < WARM_UP + LATENCY_PAYMENTS; i++) {
      const { payment_id } = await api('POST', '/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB' });
      const arrival = receiver.arrivalOf(payment_id!);
      const start = clockMs();
      await api('POST', `/Thai/v1/test/payments/${payment_id}/succeed`);
      const received = await arrival;
      if (i >= WARM_UP) latencies.push(received - start);
    }
    latencies.sort((a, b) => a - b);

    const drainSeconds = (lastArrival - drainStart) / 1000;
    const rows: [string, string][] = [
      ['database', running.runtime.db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded, in memory)'],
      ['completion -> receipt, median', `${percentile(latencies, 50).toFixed(1)} ms`],
      ['completion -> receipt, p99', `${percentile(latencies, 99).toFixed(1)} ms`],
      ['completion -> receipt, max', `${(latencies.at(-1) ?? NaN).toFixed(1)} ms  (${LATENCY_PAYMENTS} payments)`],
      [`drain of ${BACKLOG} pending`, `${(BACKLOG / drainSeconds).toFixed(0)} deliveries/s  (${(drainSeconds * 1000).toFixed(0)} ms to the last receipt)`],
      ['drain, all outcomes recorded', `${((drainRecorded - drainStart) / 1000).toFixed(2)} s`],
      ['signatures that failed to verify', String(receiver.unverified())],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    console.log(rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n'));
  } finally {
    await stopDispatcher?.();
    await running.stop();
    await receiver.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
