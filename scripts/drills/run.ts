/**
 * `npm run drill -- NAME... [--short]`: fault and scale drills against the real server and worker, run as child
 * processes (the bundles `npm start` runs, built first) on scratch PostgreSQL databases (`pqr_drill_*`, dropped
 * afterwards), loopback only.
 *
 *   crash      SIGKILL the server during QR-generation load, restart: no acknowledged write lost, every event delivered
 *   database   PostgreSQL stops during load and comes back: 503 envelope while down, no exit, recovery by itself
 *   receiver   the webhook receiver is down, failing, hanging, then up: every event arrives signed, duplicates counted
 *   instances  two servers + two workers on one database: one payment per key, no delivery attempt made twice
 *   fuzz       >= 10,000 generated hostile requests (--short: 1,000): no 5xx, every error in the envelope, memory flat
 *   scale      1,000,000 transactions for one merchant: list latency at 10k, 100k and 1M rows, EXPLAIN of the slow ones
 *   bank       1,000 live payments through the SCB simulator, 10 % of callbacks dropped, 10 % duplicated, one SIGKILL
 *   fairness   16 hanging webhook endpoints of one merchant: another merchant's deliveries still arrive within 2 s
 *   flood      16 failing (refusing, 500) endpoints of one merchant creating QR codes at its rate limit for 30 s
 *              (--short: 8 s): another merchant's deliveries each within 2 s
 *   images     one client fetching QR images of 50 codes, sizes 200-1000, 8 at a time for 10 s (--short: 4 s), then a shop
 *              posting 2 MiB / 4000 px slips 4 at a time as long: another merchant's GET /payments/{id} median under 5x
 *              its unloaded median (under 250 ms; for slips, or 100 ms more)
 *   failover   pg_auto_failover (monitor + 2 synchronous nodes): SIGKILL the primary's postmaster under load; needs the
 *              Debian packages pg-auto-failover-cli and postgresql-15-auto-failover (exit 2 without them)
 *   documents  60 statement PDF downloads at once: server + browser under 1.5 GiB, every answer a PDF or a 503
 *   all        every drill; `all --short` is the CI subset: fuzz --short, instances, crash (--short), fairness (--short),
 *              flood (--short), images (--short)
 *
 * Each drill prints a result table (PASS/FAIL per guarantee, figures without a verdict) and the run exits 1 when any
 * guarantee broke or a drill could not run (2 when a program it needs is not installed). PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import { parseArgs } from 'node:util';
import { buildServer } from '../../server/build.js';
import { createContext, machine, MissingPrerequisite, printTable, type Drill, type DrillContext } from './lib/harness.js';

const DRILLS: Record<string, () => Promise<Drill>> = {
  crash: async () => (await import('./crash.js')).crashDrill,
  database: async () => (await import('./database.js')).databaseDrill,
  receiver: async () => (await import('./receiver-outage.js')).receiverDrill,
  instances: async () => (await import('./instances.js')).instancesDrill,
  fuzz: async () => (await import('./fuzz.js')).fuzzDrill,
  scale: async () => (await import('./scale.js')).scaleDrill,
  bank: async () => (await import('./bank.js')).bankDrill,
  fairness: async () => (await import('./fairness.js')).fairnessDrill,
  flood: async () => (await import('./flood.js')).floodDrill,
  images: async () => (await import('./qr-images.js')).qrImagesDrill,
  failover: async () => (await import('./failover.js')).failoverDrill,
  documents: async () => (await import('./documents.js')).documentsDrill,
};
const CI_SUBSET = ['fuzz', 'instances', 'crash', 'fairness', 'flood', 'images'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { short: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
});

function usage(code: number): never {
  console.log(`usage: npm run drill -- (${Object.keys(DRILLS).join(' | ')} | all)... [--short]\n  all --short: the CI subset (${CI_SUBSET.join(', ')})`);
  process.exit(code);
}

if (values.help) usage(0);
if (positionals.length === 0) usage(2);
const names = positionals.flatMap((name) =>
  name === 'all' ? (values.short ? CI_SUBSET : Object.keys(DRILLS)) : [name === 'receiver-outage' ? 'receiver' : name],
);
for (const name of names) if (!DRILLS[name]) usage(2);

// The drills run the server as production does (`npm start`: the bundles in server/dist/), built from these sources.
await buildServer();

let current: (DrillContext & { cleanup(): Promise<void> }) | null = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void (current?.cleanup() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

async function runOne(name: string): Promise<{ name: string; ok: boolean; seconds: number; missing?: string }> {
  const drill = await DRILLS[name]!();
  const ctx = createContext(name, values.short);
  current = ctx;
  const started = Date.now();
  const limitMs = drill.timeLimitMs(values.short);
  console.log(`\n### drill ${name}${values.short ? ' (short)' : ''}: ${drill.summary}\n    ${machine()}, time limit ${limitMs / 1000} s`);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      drill.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`time limit of ${limitMs / 1000} s reached`)), limitMs);
      }),
    ]);
  } catch (error) {
    if (error instanceof MissingPrerequisite) {
      console.error(`\n${name}: cannot run here. ${error.message}`);
      return { name, ok: false, seconds: (Date.now() - started) / 1000, missing: error.message };
    }
    ctx.check('drill ran to the end', error instanceof Error ? error.message.split('\n')[0] : String(error), false, 'no error');
    if (error instanceof Error && error.stack) ctx.note(error.stack);
  } finally {
    clearTimeout(timer);
    await ctx.cleanup();
    current = null;
  }
  const seconds = (Date.now() - started) / 1000;
  const ok = ctx.rows.every((row) => row.ok !== false);
  printTable(`${name}: ${ok ? 'PASS' : 'FAIL'} in ${seconds.toFixed(0)} s`, ctx.rows);
  for (const note of ctx.notes) console.log(`\n${note}`);
  return { name, ok, seconds };
}

const results = [];
for (const name of names) results.push(await runOne(name));
if (results.length > 1) {
  console.log('\n== summary');
  for (const r of results) console.log(`${r.missing ? 'SKIP' : r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(10)} ${r.seconds.toFixed(0).padStart(4)} s`);
}
const broke = results.some((r) => !r.ok && !r.missing);
process.exit(broke ? 1 : results.some((r) => r.missing) ? 2 : 0);
