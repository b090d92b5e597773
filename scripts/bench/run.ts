/**
 * `npm run bench`: three scenarios under autocannon, side by side in one run, against the real server on PostgreSQL
 * and against two bare ceilings (./baseline.ts: in-memory key map, one prepared CTE into minimal tables of its own):
 * `raw` (node:http + pg, no framework: the one the targets are judged by) and `express` (the same work behind
 * express, for comparison): QR generation without an Idempotency-Key, QR generation with a fresh key each, and
 * payment retrieval. For each target and QR scenario it also reads PostgreSQL's WAL written per request
 * (`pg_stat_wal`, cluster-wide: run it on a PostgreSQL nobody else writes to).
 * A benchmark, not a test: prints PASS/MISS per target (ratio, p99, server RSS under load) and exits 0 (1 only if
 * it could not run).
 *
 * Each target runs in a child process of its own, on a scratch database of its own (`pqr_bench_*`: the server's
 * migrations; `pqr_bench_raw_*`, `pqr_bench_express_*`: the ceilings' own minimal tables), so none shares an event loop with the load
 * generator nor grows the others' tables. Children and databases are removed on exit, error, Ctrl-C or the time limit.
 *
 * Options (flag or env):
 *   --seconds N        BENCH_SECONDS        measured seconds per scenario and target (10)
 *   --warmup N         BENCH_WARMUP         warm-up seconds before each measured run (3)
 *   --connections N    BENCH_CONNECTIONS    concurrent connections (32)
 *   --dispatcher on|off BENCH_DISPATCHER    the server's WEBHOOK_DISPATCHER (on: production default)
 *   --cpu-prof DIR     BENCH_CPU_PROF       write a V8 CPU profile of the server child into DIR, and of each ceiling into DIR/raw, DIR/express
 *   --only LIST        BENCH_ONLY           comma-separated scenarios to run: qr, qr-keyed, retrieval (all)
 *   --rounds N         BENCH_ROUNDS         alternate server, raw and express N times per scenario; the table shows medians (3)
 *   --server-entry F   BENCH_SERVER_ENTRY   the server's entry point: server/dist/main.js (built first, as `npm start` runs it),
 *                                           or a TypeScript file run through tsx (server/src/main.ts, an experimental variant)
 *   --server-node-args=A BENCH_SERVER_NODE_ARGS node flags for the server instead of those `npm start` gives it (the V8 heap
 *                                           sizes in package.json), e.g. --server-node-args=--max-semi-space-size=4; '' for none
 * PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildServer } from '../../server/build.js';
import { adminDatabaseUrl, createScratchDatabase } from '../lib/postgres.js';
import { cleanupRegistry, freePort, spawnNode, waitForHttp } from '../lib/processes.js';
import { cpuMsOf, merchantOn, ROOT, settled, startNodeFlags, walSoFar } from './measures.js';
import { QR_BODY } from './qr-body.js';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    dispatcher: { type: 'string' },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
    'server-entry': { type: 'string' },
    'server-node-args': { type: 'string' },
    rounds: { type: 'string' },
    'rate-limit': { type: 'string' },
  },
});

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name}: '${raw}' must be a whole number`);
  return value;
}

const options = {
  seconds: Math.max(1, positive('--seconds', flags.seconds ?? process.env.BENCH_SECONDS, 10)),
  warmup: positive('--warmup', flags.warmup ?? process.env.BENCH_WARMUP, 3),
  rounds: Math.max(1, positive('--rounds', flags.rounds ?? process.env.BENCH_ROUNDS, 3)),
  connections: Math.max(1, positive('--connections', flags.connections ?? process.env.BENCH_CONNECTIONS, 32)),
  dispatcher: flags.dispatcher ?? process.env.BENCH_DISPATCHER ?? 'on',
  cpuProfDir: flags['cpu-prof'] ?? process.env.BENCH_CPU_PROF,
  only: flags.only ?? process.env.BENCH_ONLY,
  serverEntry: flags['server-entry'] ?? process.env.BENCH_SERVER_ENTRY ?? 'server/dist/main.js',
  // The rate limiter on, with a limit the benchmark never reaches (0: off), so its cost is part of what is measured.
  rateLimit: positive('--rate-limit', flags['rate-limit'] ?? process.env.BENCH_RATE_LIMIT, 1_000_000),
  serverNodeArgs: (flags['server-node-args'] ?? process.env.BENCH_SERVER_NODE_ARGS ?? startNodeFlags()).split(' ').filter(Boolean),
};
if (!['on', 'off'].includes(options.dispatcher)) throw new Error(`--dispatcher must be on or off, not '${options.dispatcher}'`);
const SCENARIOS = ['qr', 'qr-keyed', 'retrieval'] as const;
type ScenarioName = (typeof SCENARIOS)[number];
type TargetName = 'server' | 'raw' | 'express';

/** Node's flags for a V8 CPU profile written into dir when the process exits; none without a dir. */
function profiled(dir: string | undefined): string[] {
  if (!dir) return [];
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`];
}
const TARGET_NAMES = ['server', 'raw', 'express'] as const;
const scenarios = (options.only?.split(',') ?? [...SCENARIOS]) as ScenarioName[];
for (const name of scenarios) if (!SCENARIOS.includes(name)) throw new Error(`--only takes ${SCENARIOS.join(', ')}, not '${name}'`);

/** Issue #37: 0.8 of the raw ceiling's throughput on every scenario, p99 under 25 ms on a quiet machine. */
const TARGETS: Record<ScenarioName, number> & { p99Ms: number; rssMiB: number } = { qr: 0.8, 'qr-keyed': 0.8, retrieval: 0.8, p99Ms: 25, rssMiB: 150 };

interface Endpoint {
  base: string;
  /** Path prefix of the API: /Thai/v1 on the server, / on the ceilings. */
  api: string;
  headers: Record<string, string>;
  paymentId: string;
  pid: number;
}

interface Measured {
  round: number;
  scenario: ScenarioName;
  target: TargetName;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Peak resident set size of the target's process during the run, MiB. */
  rssMiB: number;
  /** CPU time of the target's process per answered request, ms: steadier than req/s on a busy machine. */
  cpuMs: number;
  /** WAL PostgreSQL wrote per answered request while this run went (bytes, records). */
  walBytes: number;
  walRecords: number;
  /** Write system calls of the target's process per answered request (sockets and pipes alike; /proc/PID/io). */
  writes: number;
}

let keyCounter = 0;
const runId = randomBytes(4).toString('hex');

function requestsFor(scenario: ScenarioName, endpoint: Endpoint): autocannon.Request[] {
  if (scenario === 'retrieval') return [{ method: 'GET', path: `${endpoint.api}/payments/${endpoint.paymentId}`, headers: endpoint.headers }];
  const qr: autocannon.Request = {
    method: 'POST',
    path: `${endpoint.api}/qr-codes`,
    headers: { ...endpoint.headers, 'content-type': 'application/json' },
    body: QR_BODY,
  };
  if (scenario === 'qr') return [qr];
  // A new Idempotency-Key per request: every request creates a payment, none is a replay.
  return [{ ...qr, setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': `bench-${runId}-${++keyCounter}` } }) }];
}

/** Write system calls a process has made (Linux /proc; 0 elsewhere). */
function writeCallsOf(pid: number): number {
  try {
    return Number(/syscw:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Resident set size of a process, MiB (Linux /proc; 0 elsewhere). */
function rssMiBOf(pid: number): number {
  try {
    const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? Number(kib) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function load(scenario: ScenarioName, target: TargetName, endpoint: Endpoint, seconds: number, round = 0): Promise<Measured> {
  let rssMiB = rssMiBOf(endpoint.pid);
  await settled();
  const cpuBefore = cpuMsOf(endpoint.pid);
  const walBefore = await walSoFar();
  const writesBefore = writeCallsOf(endpoint.pid);
  const sampler = setInterval(() => (rssMiB = Math.max(rssMiB, rssMiBOf(endpoint.pid))), 250);
  const result = await autocannon({
    url: endpoint.base,
    connections: options.connections,
    duration: seconds,
    timeout: 10,
    requests: requestsFor(scenario, endpoint),
  });
  clearInterval(sampler);
  const answered = Math.max(1, result.requests.total);
  const cpuMs = (cpuMsOf(endpoint.pid) - cpuBefore) / answered;
  await settled();
  const walAfter = await walSoFar();
  return {
    round,
    scenario,
    target,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    rssMiB,
    cpuMs,
    walBytes: (walAfter.bytes - walBefore.bytes) / answered,
    walRecords: (walAfter.records - walBefore.records) / answered,
    writes: (writeCallsOf(endpoint.pid) - writesBefore) / answered,
  };
}

async function postJson(url: string, headers: Record<string, string>): Promise<{ payment_id: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `seed-${runId}` },
    body: QR_BODY,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`seeding ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as { payment_id: string };
}

const loadNow = (): string =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadAtStart = loadNow();
const busyMachine = loadavg()[0]! > availableParallelism();

const fmt = (n: number, digits = 0): string => n.toFixed(digits);
const pad = (text: string, width: number): string => (text.length >= width ? text : `${' '.repeat(width - text.length)}${text}`);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One row per scenario and target: medians over the rounds (the only value when there is one), error counts summed. */
function summarize(results: Measured[], scenario: ScenarioName, target: TargetName): Measured | null {
  const runs = results.filter((r) => r.scenario === scenario && r.target === target);
  if (runs.length === 0) return null;
  const sum = (pick: (r: Measured) => number) => runs.reduce((total, r) => total + pick(r), 0);
  return {
    round: 0,
    scenario,
    target,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    rssMiB: Math.max(...runs.map((r) => r.rssMiB)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    walBytes: median(runs.map((r) => r.walBytes)),
    walRecords: median(runs.map((r) => r.walRecords)),
    writes: median(runs.map((r) => r.writes)),
  };
}

function report(results: Measured[]): void {
  const header = [
    'scenario',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'requests',
    'non-2xx',
    'errors',
    'RSS MiB',
    'CPU ms/req',
    'WAL B/req',
    'WAL rec/req',
    'writes/req',
  ];
  const widths = [10, 9, 9, 7, 7, 9, 8, 7, 8, 10, 9, 11, 10];
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : pad(cell, widths[i]!))).join('  ');
  console.log(
    `\n${options.connections} connections, ${options.seconds} s per run after ${options.warmup} s warm-up, server node ${[...options.serverNodeArgs, options.serverEntry].join(' ')} WEBHOOK_DISPATCHER=${options.dispatcher}`,
  );
  if (options.rounds > 1) console.log(`${options.rounds} alternating rounds per scenario: req/s, p50 and p99 are medians; requests and errors are totals`);
  console.log(
    `load average at start ${loadAtStart}, now ${loadNow()} on ${availableParallelism()} cores${busyMachine ? ' — the machine was busy with other work: figures are noisy' : ''}\n`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  const rows = SCENARIOS.flatMap((scenario) => TARGET_NAMES.map((target) => summarize(results, scenario, target)));
  for (const r of rows) {
    if (r)
      console.log(
        line([
          r.scenario,
          r.target,
          fmt(r.rps),
          fmt(r.p50),
          fmt(r.p99),
          String(r.requests),
          String(r.non2xx),
          String(r.errors + r.timeouts),
          fmt(r.rssMiB),
          fmt(r.cpuMs, 2),
          fmt(r.walBytes),
          fmt(r.walRecords, 1),
          fmt(r.writes, 1),
        ]),
      );
  }
  console.log('');
  for (const scenario of SCENARIOS) {
    const server = summarize(results, scenario, 'server');
    const baseline = summarize(results, scenario, 'raw');
    if (!server || !baseline) continue;
    // Per round (server and ceilings measured back to back), then the median of those ratios.
    const ratiosTo = (ceiling: TargetName) =>
      results
        .filter((r) => r.scenario === scenario && r.target === 'server')
        .map((r) => r.rps / Math.max(1e-9, results.find((b) => b.scenario === scenario && b.target === ceiling && b.round === r.round)?.rps ?? Infinity));
    const ratios = ratiosTo('raw');
    const ratio = median(ratios);
    const min = TARGETS[scenario];
    const clean = server.non2xx + server.errors + server.timeouts === 0;
    const perRound = ratios.length > 1 ? ` [rounds: ${ratios.map((r) => fmt(r, 2)).join(' ')}]` : '';
    console.log(
      `${ratio >= min && clean ? 'PASS' : 'MISS'}  ${scenario}: server/raw throughput ${fmt(ratio, 2)} (target >= ${min})${perRound}${clean ? '' : ' — server had non-2xx/errors'}; server/express ${fmt(median(ratiosTo('express')), 2)}`,
    );
    console.log(
      `${server.p99 < TARGETS.p99Ms ? 'PASS' : 'MISS'}  ${scenario}: server p99 ${fmt(server.p99)} ms (target < ${TARGETS.p99Ms} ms; raw p99 ${fmt(baseline.p99)} ms)`,
    );
  }
  const peak = Math.max(...results.filter((r) => r.target === 'server').map((r) => r.rssMiB));
  console.log(`${peak < TARGETS.rssMiB ? 'PASS' : 'MISS'}  server RSS under load: peak ${fmt(peak)} MiB (target < ${TARGETS.rssMiB} MiB)`);
}

async function main(): Promise<void> {
  const cleanup = cleanupRegistry();
  const limitMs = (scenarios.length * TARGET_NAMES.length * (options.rounds * options.seconds + options.warmup) + 120) * 1_000;
  const limit = setTimeout(() => {
    console.error(`bench: time limit of ${limitMs / 1000} s reached; cleaning up`);
    void cleanup.run().finally(() => process.exit(1));
  }, limitMs);

  try {
    console.log(`PostgreSQL: ${new URL(adminDatabaseUrl()).host}; scratch databases pqr_bench_*`);
    const serverDb = await createScratchDatabase('pqr_bench');
    cleanup.add(() => serverDb.drop());
    const rawDb = await createScratchDatabase('pqr_bench_raw');
    cleanup.add(() => rawDb.drop());
    const expressDb = await createScratchDatabase('pqr_bench_express');
    cleanup.add(() => expressDb.drop());

    if (options.serverEntry.startsWith('server/dist/')) await buildServer();
    const serverPort = await freePort();
    const server = spawnNode('server', options.serverEntry, {
      cwd: ROOT,
      env: {
        DATABASE_URL: serverDb.url,
        PORT: String(serverPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WEBHOOK_DISPATCHER: options.dispatcher,
        RATE_LIMIT_PER_SECOND: String(options.rateLimit),
        NODE_ENV: 'production',
      },
      nodeArgs: [...options.serverNodeArgs, ...profiled(options.cpuProfDir)],
    });
    cleanup.add(() => server.stop());
    const serverBase = `http://127.0.0.1:${serverPort}`;
    await waitForHttp(`${serverBase}/readyz`, server);
    const merchant = await merchantOn(serverDb.url);

    // The ceilings know one merchant and its key, held in memory; their tables are their own (each creates them).
    const baselineKey = `sk_test_${randomBytes(24).toString('base64url')}`;
    const baselineHeaders = { authorization: `Bearer ${baselineKey}` };
    const ceiling = async (http: 'raw' | 'express', databaseUrl: string): Promise<Endpoint> => {
      const port = await freePort();
      const child = spawnNode(`baseline (${http})`, 'scripts/bench/baseline.ts', {
        cwd: ROOT,
        env: {
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          API_KEY: baselineKey,
          MERCHANT_ID: 'mer_bench',
          PROMPTPAY_ID: merchant.promptPayId,
          BASELINE_HTTP: http,
          NODE_ENV: 'production',
        },
        nodeArgs: profiled(options.cpuProfDir && join(options.cpuProfDir, http)),
      });
      cleanup.add(() => child.stop());
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/readyz`, child);
      return { base, api: '', headers: baselineHeaders, paymentId: (await postJson(`${base}/qr-codes`, baselineHeaders)).payment_id, pid: child.process.pid! };
    };

    const serverHeaders = { authorization: `Bearer ${merchant.apiKey}` };
    const endpoints: Record<TargetName, Endpoint> = {
      server: {
        base: serverBase,
        api: '/Thai/v1',
        headers: serverHeaders,
        paymentId: (await postJson(`${serverBase}/Thai/v1/qr-codes`, serverHeaders)).payment_id,
        pid: server.process.pid!,
      },
      raw: await ceiling('raw', rawDb.url),
      express: await ceiling('express', expressDb.url),
    };

    const results: Measured[] = [];
    for (const scenario of scenarios) {
      for (let round = 1; round <= options.rounds; round++) {
        for (const target of TARGET_NAMES) {
          const label = `${scenario}/${target}${options.rounds > 1 ? ` round ${round}` : ''}: `;
          process.stdout.write(label);
          if (round === 1 && options.warmup > 0) {
            process.stdout.write(`warm-up ${options.warmup} s… `);
            await load(scenario, target, endpoints[target], options.warmup);
          }
          process.stdout.write(`measuring ${options.seconds} s… `);
          const measured = await load(scenario, target, endpoints[target], options.seconds, round);
          results.push(measured);
          console.log(
            `${fmt(measured.rps)} req/s, p99 ${measured.p99} ms, RSS ${fmt(measured.rssMiB)} MiB, CPU ${fmt(measured.cpuMs, 2)} ms/req, WAL ${fmt(measured.walBytes)} B/req`,
          );
        }
      }
    }
    report(results);
    if (options.cpuProfDir)
      console.log(`\nCPU profiles (written when each process exits): the server's in ${resolve(options.cpuProfDir)}, the ceilings' in raw/ and express/ there`);
  } finally {
    clearTimeout(limit);
    await cleanup.run();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
