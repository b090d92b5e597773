/**
 * `node --import tsx scripts/bench/backend-cost.ts`: what one QR code costs PostgreSQL, and which trigger and index of
 * the service's schema pays for what (issue #37's per-request budget, its database half). No load generator and no
 * contention: one connection sends `--requests` QR requests one after another to the built server, then to the raw
 * ceiling (./baseline.ts), each on a scratch database of its own; the CPU time of every PostgreSQL backend of that
 * database (user + system, /proc/PID/stat) and of the Node process over the run, divided by the requests, with the WAL
 * PostgreSQL wrote (`pg_stat_wal`, cluster-wide: run it on a PostgreSQL nothing else writes to).
 *
 * What each trigger and index of the statement costs: ./statement-parts.ts.
 *
 * Options: --requests N (2000)  --warmup N (300)  --rounds N (3, medians; server and ceiling alternate)
 * PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres. The server as `npm start` runs it, with
 * the dispatcher off and the expiry sweep once an hour (background work is left out: the bench counts it).
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { buildServer } from '../../server/build.js';
import { createScratchDatabase } from '../lib/postgres.js';
import { cleanupRegistry, freePort, spawnNode, waitForHttp } from '../lib/processes.js';
import { backendsCpuMs, cpuMsOf, merchantOn, ROOT, settled, startNodeFlags, walSoFar } from './measures.js';
import { QR_BODY } from './qr-body.js';
const { values: flags } = parseArgs({
  options: { requests: { type: 'string' }, warmup: { type: 'string' }, rounds: { type: 'string' } },
});
const REQUESTS = Number(flags.requests ?? 2000);
const WARMUP = Number(flags.warmup ?? 300);
const ROUNDS = Number(flags.rounds ?? 3);

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end(QR_BODY);
  });
}

interface Target {
  url: string;
  headers: Record<string, string>;
  database: string;
  pid: number;
}
interface Cost {
  backendUs: number;
  nodeUs: number;
  walBytes: number;
  walRecords: number;
}

async function measure(target: Target): Promise<Cost> {
  for (let i = 0; i < WARMUP; i++) await post(target.url, target.headers);
  await settled();
  const [backend0, node0, wal0] = [await backendsCpuMs(target.database), cpuMsOf(target.pid), await walSoFar()];
  for (let i = 0; i < REQUESTS; i++) {
    const status = await post(target.url, target.headers);
    if (status !== 200) throw new Error(`${target.url}: ${status}`);
  }
  const [backend1, node1] = [await backendsCpuMs(target.database), cpuMsOf(target.pid)];
  await settled();
  const wal1 = await walSoFar();
  return {
    backendUs: ((backend1 - backend0) * 1000) / REQUESTS,
    nodeUs: ((node1 - node0) * 1000) / REQUESTS,
    walBytes: (wal1.bytes - wal0.bytes) / REQUESTS,
    walRecords: (wal1.records - wal0.records) / REQUESTS,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianCost = (costs: Cost[]): Cost => ({
  backendUs: median(costs.map((c) => c.backendUs)),
  nodeUs: median(costs.map((c) => c.nodeUs)),
  walBytes: median(costs.map((c) => c.walBytes)),
  walRecords: median(costs.map((c) => c.walRecords)),
});
const row = (name: string, cost: Cost) =>
  `| ${name} | ${cost.backendUs.toFixed(0)} | ${cost.nodeUs.toFixed(0)} | ${cost.walBytes.toFixed(0)} B in ${cost.walRecords.toFixed(1)} |`;

const cleanup = cleanupRegistry();
try {
  const serverDb = await createScratchDatabase('pqr_bench');
  cleanup.add(() => serverDb.drop());
  const rawDb = await createScratchDatabase('pqr_bench_raw');
  cleanup.add(() => rawDb.drop());
  await buildServer();

  const { apiKey, promptPayId } = await merchantOn(serverDb.url);
  const serverPort = await freePort();
  const server = spawnNode('server', 'server/dist/main.js', {
    cwd: ROOT,
    nodeArgs: startNodeFlags().split(' ').filter(Boolean),
    env: {
      DATABASE_URL: serverDb.url,
      PORT: String(serverPort),
      LOG_LEVEL: 'warn',
      WEBHOOK_DISPATCHER: 'off',
      EXPIRY_SWEEP_INTERVAL_MS: '3600000',
      RATE_LIMIT_PER_SECOND: '0',
      NODE_ENV: 'production',
    },
  });
  cleanup.add(() => server.stop());
  await waitForHttp(`http://127.0.0.1:${serverPort}/readyz`, server);

  const rawKey = `sk_test_${randomBytes(24).toString('base64url')}`;
  const rawPort = await freePort();
  const raw = spawnNode('raw ceiling', 'scripts/bench/baseline.ts', {
    cwd: ROOT,
    env: {
      DATABASE_URL: rawDb.url,
      PORT: String(rawPort),
      API_KEY: rawKey,
      MERCHANT_ID: 'mer_bench',
      PROMPTPAY_ID: promptPayId,
      BASELINE_HTTP: 'raw',
      NODE_ENV: 'production',
    },
  });
  cleanup.add(() => raw.stop());
  await waitForHttp(`http://127.0.0.1:${rawPort}/readyz`, raw);

  const targets = {
    server: {
      url: `http://127.0.0.1:${serverPort}/Thai/v1/qr-codes`,
      headers: { authorization: `Bearer ${apiKey}` },
      database: serverDb.name,
      pid: server.process.pid!,
    },
    raw: { url: `http://127.0.0.1:${rawPort}/qr-codes`, headers: { authorization: `Bearer ${rawKey}` }, database: rawDb.name, pid: raw.process.pid! },
  };
  const runs: Record<'server' | 'raw', Cost[]> = { server: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? (['server', 'raw'] as const) : (['raw', 'server'] as const)) runs[name].push(await measure(targets[name]));
  }
  const server0 = medianCost(runs.server);
  console.log(`${REQUESTS} QR codes one after another, ${ROUNDS} rounds (medians), ${new Date().toISOString()}\n`);
  console.log('| what | PostgreSQL backend CPU µs per QR | Node CPU µs per QR | WAL per QR |\n|---|---|---|---|');
  console.log(row('raw ceiling', medianCost(runs.raw)));
  console.log(row('server', server0));
} finally {
  await cleanup.run();
}
