/**
 * The service under drill, from outside: scratch PostgreSQL databases, servers and workers as child processes
 * (`node server/dist/main.js` / `worker.js`, the bundles `npm start` runs, which `npm run drill` builds first), a
 * merchant, a small HTTP client and the error-envelope check.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createMerchant } from '../../../server/src/app/merchants.js';
import { loadConfig } from '../../../server/src/config.js';
import type { PayoutAccount } from '../../../server/src/domain/payout-account.js';
import { openRuntime } from '../../../server/src/main.js';
import { createScratchDatabase, type ScratchDatabase } from '../../lib/postgres.js';
import { freePort, spawnNode, waitForHttp, type Child } from '../../lib/processes.js';
import type { DrillContext } from './harness.js';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** A scratch database `pqr_drill_<random>`, dropped when the drill ends. */
export async function scratchDatabase(ctx: DrillContext, adminUrl?: string): Promise<ScratchDatabase> {
  const db = await createScratchDatabase('pqr_drill', adminUrl);
  ctx.defer(() => db.drop());
  return db;
}

/** Runs the migrations (through the server's own code) and creates a sandbox merchant. */
export async function createTestMerchant(
  databaseUrl: string,
  name = 'Drill merchant',
  payoutAccount: PayoutAccount | null = null,
): Promise<{ id: string; apiKey: string }> {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
  try {
    const { merchant, apiKey } = await createMerchant(runtime.services, {
      name,
      mode: 'test',
      account: { kind: 'promptpay_id', id: '0812345678' },
      payoutAccount,
    });
    return { id: merchant.id, apiKey };
  } finally {
    await runtime.close();
  }
}

/** Settings every drill child gets: loopback, quiet logs, fast retries, private webhook URLs allowed. */
export const DRILL_ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,2s,2s,3s,3s,5s,5s,5s',
  WEBHOOK_TIMEOUT_MS: '2000',
  RATE_LIMIT_PER_SECOND: '0', // drills load one merchant far past its limit on purpose: they test other guarantees
  NODE_ENV: 'production',
};

export interface ServiceProcess {
  name: string;
  child: Child;
  /** http://127.0.0.1:<port> (servers only). */
  base: string;
  port: number;
  pid(): number;
  alive(): boolean;
  /** Resident set size of the child, in MiB (Linux /proc). */
  rssMiB(): number;
  /** After a full GC, in MiB (servers started with memoryProbe only). */
  memoryAfterGc(): Promise<{ rss: number; heapUsed: number; external: number }>;
  /** err.message of every 'unhandled error' the server logged, by request id. */
  errorsByRequest: Map<string, string>;
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

function wrap(name: string, child: Child, port: number): ServiceProcess {
  const errorsByRequest = new Map<string, string>();
  const memoryLines: ((line: string) => void)[] = [];
  let partial = '';
  const onOutput = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('DRILL_MEMORY ')) memoryLines.shift()?.(line.slice('DRILL_MEMORY '.length));
      else if (line.startsWith('{') && line.includes('"requestId"')) {
        try {
          const entry = JSON.parse(line) as { requestId?: string; err?: { message?: string; code?: string } };
          if (entry.requestId && entry.err) errorsByRequest.set(entry.requestId, `${entry.err.code ? `${entry.err.code}: ` : ''}${entry.err.message ?? ''}`);
        } catch {
          // not a log line
        }
      }
    }
  };
  child.process.stdout?.on('data', onOutput);
  child.process.stderr?.on('data', onOutput);
  const exited = new Promise<void>((done) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) done();
    else child.process.once('exit', () => done());
  });
  return {
    name,
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    pid: () => child.process.pid ?? -1,
    alive: () => child.process.exitCode === null && child.process.signalCode === null,
    rssMiB() {
      const status = readFileSync(`/proc/${child.process.pid}/status`, 'utf8');
      const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      return kib / 1024;
    },
    errorsByRequest,
    memoryAfterGc() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no memory report (started without memoryProbe?)`)), 10_000);
        memoryLines.push((json) => {
          clearTimeout(timer);
          const m = JSON.parse(json) as { rss: number; heapUsed: number; external: number };
          resolve({ rss: m.rss / 2 ** 20, heapUsed: m.heapUsed / 2 ** 20, external: m.external / 2 ** 20 });
        });
        child.process.kill('SIGUSR2');
      });
    },
    async kill(signal) {
      if (child.process.exitCode !== null || child.process.signalCode !== null) return;
      child.process.kill(signal);
      await exited;
    },
    stop: () => child.stop(5_000),
  };
}

export async function startServer(
  ctx: DrillContext,
  options: { name?: string; databaseUrl: string; port?: number; env?: Record<string, string>; memoryProbe?: boolean },
): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const name = options.name ?? 'server';
  const child = spawnNode(name, 'server/dist/main.js', {
    cwd: ROOT,
    env: { ...DRILL_ENV, DATABASE_URL: options.databaseUrl, PORT: String(port), ...options.env },
    nodeArgs: options.memoryProbe ? ['--expose-gc', '--import', resolve(ROOT, 'scripts/drills/lib/memory-probe.mjs')] : [],
  });
  const service = wrap(name, child, port);
  ctx.defer(() => service.stop());
  await waitForHttp(`${service.base}/readyz`, child, 60_000);
  return service;
}

export async function startWorker(ctx: DrillContext, options: { name?: string; databaseUrl: string; env?: Record<string, string> }): Promise<ServiceProcess> {
  const name = options.name ?? 'worker';
  // LOG_LEVEL=info so that it announces 'worker running'; a worker logs nothing per request.
  const child = spawnNode(name, 'server/dist/worker.js', {
    cwd: ROOT,
    env: { ...DRILL_ENV, LOG_LEVEL: 'info', DATABASE_URL: options.databaseUrl, ...options.env },
  });
  const service = wrap(name, child, 0);
  ctx.defer(() => service.stop());
  // A worker has no HTTP port: it is up once it says so.
  const deadline = Date.now() + 60_000;
  while (!/worker running/.test(child.output()) && Date.now() < deadline) {
    if (!service.alive()) throw new Error(`${name} exited early:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!service.alive()) throw new Error(`${name} exited early:\n${child.output()}`);
  return service;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (null if none): drills read API fields from it as a client would. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

/** fetch with a time-out; network failures are returned as status 0 with the error's code in `text`. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { apiKey?: string; body?: unknown; idempotencyKey?: string; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, text, body, ms: performance.now() - started };
  } catch (error) {
    const e = error as { cause?: { code?: string }; name?: string; message?: string };
    return { status: 0, headers: new Headers(), text: e.cause?.code ?? e.name ?? String(e.message), body: null, ms: performance.now() - started };
  }
}

/** Why a response breaks the envelope rule, or null: every response has Request-Id; every non-2xx body is the error envelope. */
export function envelopeViolation(
  status: number,
  headers: Headers | Record<string, string | string[] | undefined>,
  text: string,
  method = 'GET',
): string | null {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : ((headers[name] as string | undefined) ?? null));
  const requestId = get('request-id');
  if (!requestId) return 'no Request-Id header';
  if (status >= 200 && status < 300) return null;
  if (method === 'HEAD') return null;
  let body: { error?: Record<string, unknown> } | null;
  try {
    body = JSON.parse(text) as { error?: Record<string, unknown> } | null;
  } catch {
    return `non-JSON error body: ${JSON.stringify(text.slice(0, 120))}`;
  }
  const e = body?.error;
  if (!e || typeof e !== 'object') return 'no error object';
  for (const field of ['code', 'message', 'type', 'request_id'] as const) if (typeof e[field] !== 'string') return `error.${field} missing`;
  const extra = Object.keys(body ?? {}).filter((k) => k !== 'error');
  if (extra.length) return `extra top-level keys ${extra.join(',')}`;
  if (get('idempotent-replayed') !== 'true' && e.request_id !== requestId) return `error.request_id ${e.request_id} != Request-Id ${requestId}`;
  return null;
}

/** A pg client to inspect a database; closed when the drill ends. */
export async function inspect(ctx: DrillContext, databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  client.on('error', () => undefined); // the database drill takes it away on purpose
  ctx.defer(() => client.end());
  return client;
}

export const QR_BODY = (reference: string) => ({ amount: 15000, currency: 'THB', reference, metadata: { order_id: reference } });

export const ALL_EVENTS = ['payment.pending', 'payment.succeeded', 'payment.failed', 'refund.completed', 'refund.failed'];

/** Withdrawals' events, which ALL_EVENTS leaves out (the drills that register it make no withdrawals). */
export const WITHDRAWAL_EVENTS = ['withdrawal.pending', 'withdrawal.processed', 'withdrawal.succeeded', 'withdrawal.failed'];

/** Registers a webhook for every payment and refund event kind (or `events`) to `url` and returns its id and secret. */
export async function registerWebhook(base: string, apiKey: string, url: string, events = ALL_EVENTS): Promise<{ id: string; secret: string }> {
  const created = await call(base, 'POST', '/Thai/v1/webhooks', { apiKey, body: { url, events } });
  if (created.status !== 200) throw new Error(`registering a webhook: ${created.status} ${created.text}`);
  const secret = await call(base, 'GET', `/Thai/v1/webhooks/${created.body.webhook_id}/secret`, { apiKey });
  if (secret.status !== 200) throw new Error(`reading the webhook secret: ${secret.status} ${secret.text}`);
  return { id: created.body.webhook_id, secret: secret.body.secret };
}

/** Runs `task` on `concurrency` loops until `stop()` says so; each loop gets its own sequence of indices. */
export async function closedLoop(concurrency: number, stop: () => boolean, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop()) await task(next++);
    }),
  );
  return next;
}
