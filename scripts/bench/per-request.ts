/**
 * `node --import tsx scripts/bench/per-request.ts A.js B.js [...]`: what one request costs the server, for builds side
 * by side (each `server/dist/main.js` of a checkout: before and after a change), in interleaved rounds on the same
 * machine at the same time, so that a loaded machine weighs on both alike. Each build runs in a child process of its
 * own, on a scratch PostgreSQL database of its own, loaded by autocannon from this process.
 *
 * Per round, scenario and build, after a warm-up, it measures two windows:
 *   - bytes allocated per request: the server runs with young generations of 1 GiB (`--min/max-semi-space-size`), so
 *     no collection runs while it answers `--alloc-requests` requests (halved, at most twice, until none runs); the growth of V8's heap over the window, read
 *     by ./heap-probe.mjs inside the server, is exactly what it allocated (a window in which a collection ran after all
 *     is reported and left out). Deterministic up to the background jobs' share, which is small and the same for both.
 *   - CPU ms per request and requests per second: the server as `npm start` runs it (its V8 flags), loaded for
 *     `--cpu-seconds`; the process's CPU time (user + system) over the window divided by the requests answered. With
 *     `--rate N`, N requests a second are offered instead of as many as it answers: the CPU a request costs then
 *     depends less on how loaded the machine is (under full load, the busier a server, the more requests share an
 *     event loop turn and its system calls).
 * Both at `--connections` connections. Medians over the rounds are printed per build.
 *
 * Options: --scenarios retrieval,qr,qr-keyed  --rounds 3  --connections 8  --alloc-requests 1000  --cpu-seconds 5
 *   --rate 0  --heap-profile DIR: in the first round, also a sampling heap profile of each build and scenario into DIR
 * PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createMerchant } from '../../server/src/app/merchants.js';
import { loadConfig } from '../../server/src/config.js';
import { openRuntime } from '../../server/src/main.js';
import { createScratchDatabase } from '../lib/postgres.js';
import { cleanupRegistry, freePort } from '../lib/processes.js';
import { QR_BODY } from './qr-body.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const PROBE = resolve(ROOT, 'scripts/bench/heap-probe.mjs');

const { values: flags, positionals: entries } = parseArgs({
  allowPositionals: true,
  options: {
    scenarios: { type: 'string', default: 'retrieval,qr,qr-keyed' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    'alloc-requests': { type: 'string', default: '1000' },
    'cpu-seconds': { type: 'string', default: '5' },
    rate: { type: 'string', default: '0' },
    'heap-profile': { type: 'string' },
  },
});
if (entries.length === 0) throw new Error('name at least one server entry point (a built server/dist/main.js)');
const scenarios = flags.scenarios.split(',') as Scenario[];
const rounds = Number(flags.rounds);
const connections = Number(flags.connections);
const allocRequests = Number(flags['alloc-requests']);
const cpuSeconds = Number(flags['cpu-seconds']);
/** Requests per second offered in the CPU window (0: as many as the server answers). */
const rate = Number(flags.rate);
type Scenario = 'retrieval' | 'qr' | 'qr-keyed';

/** The node flags of `npm start`, as ./run.ts gives the server. */
const startFlags = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(' ')
  .filter((word) => word.startsWith('--'));

const runId = randomBytes(4).toString('hex');
let keyCounter = 0;

interface Server {
  entry: string;
  base: string;
  child: ChildProcess;
  read(): Promise<{ usedHeap: number; collections: number; cpuMicros: number }>;
  command(line: string): void;
  /** Sends a command and waits for its PROBE line. */
  ask(line: string): Promise<string>;
  stop(): Promise<void>;
}

async function startServer(entry: string, databaseUrl: string, nodeArgs: string[]): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', PROBE, entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_SECOND: '1000000',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.startsWith('PROBE ')) waiting.shift()?.(line.slice(6));
    }
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`${entry} exited before it answered`);
    const ready = await fetch(`${base}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (tries > 300) throw new Error(`${entry} did not answer within 30 s`);
    await new Promise((done) => setTimeout(done, 100));
  }
  const ask = (command: string): Promise<string> => {
    const line = new Promise<string>((done) => waiting.push(done));
    child.stdin!.write(`${command}\n`);
    return line;
  };
  return {
    entry,
    base,
    child,
    command: (line) => void child.stdin!.write(`${line}\n`),
    ask,
    read: () => ask('read').then((text) => JSON.parse(text) as { usedHeap: number; collections: number; cpuMicros: number }),
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function merchantOn(databaseUrl: string): Promise<string> {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
  try {
    const { apiKey } = await createMerchant(runtime.services, { name: 'Bench', mode: 'test', account: { kind: 'promptpay_id', id: '0812345678' } });
    return apiKey;
  } finally {
    await runtime.close();
  }
}

function requestsFor(scenario: Scenario, headers: Record<string, string>, paymentId: string): autocannon.Request[] {
  if (scenario === 'retrieval') return [{ method: 'GET', path: `/Thai/v1/payments/${paymentId}`, headers }];
  const qr: autocannon.Request = { method: 'POST', path: '/Thai/v1/qr-codes', headers: { ...headers, 'content-type': 'application/json' }, body: QR_BODY };
  if (scenario === 'qr') return [qr];
  return [{ ...qr, setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': `pr-${runId}-${++keyCounter}` } }) }];
}

/** `amount` requests, or as many as `seconds` allow (autocannon ends an `amount` run only on its next whole second). */
async function drive(
  base: string,
  requests: autocannon.Request[],
  run: { amount: number } | { seconds: number; rate?: number },
): Promise<{ answered: number; rps: number; non2xx: number }> {
  const result = await autocannon({
    url: base,
    connections,
    requests,
    timeout: 10,
    ...('amount' in run ? { amount: run.amount } : { duration: run.seconds, ...(run.rate ? { overallRate: run.rate } : {}) }),
  });
  return { answered: result.requests.total, rps: result.requests.average, non2xx: result.non2xx + result.errors + result.timeouts };
}

interface Row {
  round: number;
  scenario: Scenario;
  entry: string;
  bytesPerRequest: number | null;
  cpuMsPerRequest: number;
  rps: number;
  non2xx: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const cleanup = cleanupRegistry();
  try {
    const targets = [];
    for (const [index, entry] of entries.entries()) {
      const db = await createScratchDatabase(`pqr_perreq_${index}`);
      cleanup.add(() => db.drop());
      const cpu = await startServer(resolve(entry), db.url, startFlags);
      cleanup.add(() => cpu.stop());
      const alloc = await startServer(resolve(entry), db.url, ['--expose-gc', '--min-semi-space-size=1024', '--max-semi-space-size=1024']);
      cleanup.add(() => alloc.stop());
      const apiKey = await merchantOn(db.url);
      const headers = { authorization: `Bearer ${apiKey}` };
      const seeded = await fetch(`${cpu.base}/Thai/v1/qr-codes`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: QR_BODY,
      });
      const { payment_id: paymentId } = (await seeded.json()) as { payment_id: string };
      targets.push({ entry, cpu, alloc, headers, paymentId });
    }
    const rows: Row[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const scenario of scenarios) {
        // Alternate which build goes first from round to round.
        const order = round % 2 ? targets : [...targets].reverse();
        for (const target of order) {
          const requests = requestsFor(scenario, target.headers, target.paymentId);
          // Allocation: warm up, collect, then a window with no collection (halved until one runs none, e.g. when
          // the sockets' buffers outside the heap prompted one).
          await drive(target.alloc.base, requests, { amount: Math.max(500, allocRequests / 2) });
          let bytesPerRequest: number | null = null;
          for (let window = allocRequests; bytesPerRequest === null && window >= allocRequests / 4; window /= 2) {
            target.alloc.command('gc');
            await new Promise((done) => setTimeout(done, 300));
            const before = await target.alloc.read();
            const { answered } = await drive(target.alloc.base, requests, { amount: window });
            const after = await target.alloc.read();
            await new Promise((done) => setTimeout(done, 300));
            const settled = await target.alloc.read(); // a collection that ran during the window is reported by now
            if (settled.collections === before.collections) bytesPerRequest = (after.usedHeap - before.usedHeap) / answered;
          }
          if (flags['heap-profile'] && round === 1) {
            // Where the bytes go: V8's sampling heap profiler over a window of the same size (./heap-probe.mjs).
            mkdirSync(flags['heap-profile'], { recursive: true });
            target.alloc.command('sample');
            await drive(target.alloc.base, requests, { amount: allocRequests });
            await target.alloc.ask(`sample ${resolve(flags['heap-profile'], `${scenario}-${targets.indexOf(target)}.heapprofile`)}`);
          }
          // CPU and throughput, as `npm start` runs it.
          await drive(target.cpu.base, requests, { seconds: 1 });
          const cpuBefore = await target.cpu.read();
          const loaded = await drive(target.cpu.base, requests, { seconds: cpuSeconds, rate });
          const cpuAfter = await target.cpu.read();
          const row: Row = {
            round,
            scenario,
            entry: target.entry,
            bytesPerRequest,
            cpuMsPerRequest: (cpuAfter.cpuMicros - cpuBefore.cpuMicros) / 1000 / Math.max(1, loaded.answered),
            rps: loaded.rps,
            non2xx: loaded.non2xx,
          };
          rows.push(row);
          console.log(
            `round ${round} ${scenario.padEnd(9)} ${target.entry}: ${row.bytesPerRequest === null ? 'a collection ran, no figure' : `${Math.round(row.bytesPerRequest)} B/req`}, ${row.cpuMsPerRequest.toFixed(3)} CPU ms/req, ${Math.round(row.rps)} req/s${row.non2xx ? `, ${row.non2xx} non-2xx or errors` : ''}`,
          );
        }
      }
    }
    console.log(
      `\nmedians over ${rounds} rounds (${connections} connections; ${allocRequests} requests per allocation window, ${cpuSeconds} s per CPU window):`,
    );
    for (const scenario of scenarios) {
      for (const { entry } of targets) {
        const mine = rows.filter((r) => r.scenario === scenario && r.entry === entry);
        const bytes = mine.flatMap((r) => (r.bytesPerRequest === null ? [] : [r.bytesPerRequest]));
        console.log(
          `${scenario.padEnd(9)} ${entry}: ${Math.round(median(bytes))} B/req [${bytes.map(Math.round).join(' ')}], ${median(mine.map((r) => r.cpuMsPerRequest)).toFixed(3)} CPU ms/req [${mine.map((r) => r.cpuMsPerRequest.toFixed(3)).join(' ')}], ${Math.round(median(mine.map((r) => r.rps)))} req/s [${mine.map((r) => Math.round(r.rps)).join(' ')}]`,
        );
      }
    }
  } finally {
    await cleanup.run();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
