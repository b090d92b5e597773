/**
 * `node --import tsx scripts/bench/statement-parts.ts`: what each row trigger and secondary index that a QR code's one
 * statement writes costs PostgreSQL (issue #37's per-request budget, its database half), steadily enough to split a
 * gap of 100 µs. backend-cost.ts compares the whole statement with the raw ceiling's; this splits the statement.
 *
 * The statement is the service's own: `createQrCode` through the unit of work's one-statement lane with the bench's
 * body, sent one after another from this process on the runtime's pool. No HTTP and no load generator: only the
 * PostgreSQL backends' CPU is counted (user + system of every backend of the database, /proc/PID/stat), over the
 * statements sent. Each run is on a fresh copy of one migrated template database (`CREATE DATABASE ... TEMPLATE`), so
 * no run inherits another's rows, bloat or dropped index, and the copy runs with `synchronous_commit` off (waiting for
 * the WAL flush is not CPU). A variant is such a copy with one trigger disabled or one secondary index dropped; the
 * variants and the whole statement are interleaved over the rounds (the order reversed every other round); medians.
 * A variant breaks what its part keeps (a count, a delivery, a list's plan), so this only ever runs on scratch copies.
 * How far to trust it: on a slow 2-core machine single runs spread by ±80 µs and the medians of nine by about ±25, so a
 * part under about 30 µs is not resolved (an index the statement never writes, `transactions_by_refund`, came out at 10
 * and 33 µs in two runs); docs/performance.md has the runs.
 *
 * Options: --statements N (3000)  --rounds N (9)  --only a,b (the variants whose name contains one of these)
 * PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres (the databases are made and dropped there).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createQrCode, type QrCodeRequest } from '../../server/src/app/create-qr-code.js';
import { loadConfig } from '../../server/src/config.js';
import { openRuntime } from '../../server/src/main.js';
import { adminDatabaseUrl, createScratchDatabase } from '../lib/postgres.js';
import { cleanupRegistry } from '../lib/processes.js';
import { backendsCpuMs, merchantOn } from './measures.js';
import { QR_BODY } from './qr-body.js';

const { values: flags } = parseArgs({ options: { statements: { type: 'string' }, rounds: { type: 'string' }, only: { type: 'string' } } });
const STATEMENTS = Number(flags.statements ?? 3000);
const ROUNDS = Number(flags.rounds ?? 9);
const WARMUP = 200;
const QR_TABLES = ['payments', 'qr_codes', 'events'];

const body = JSON.parse(QR_BODY) as {
  amount: number;
  currency: string;
  reference: string;
  client_name: string;
  client_bank_name: string;
  metadata: Record<string, string>;
};
const REQUEST: QrCodeRequest = {
  amount: body.amount,
  currency: body.currency,
  reference: body.reference,
  clientName: body.client_name,
  clientBankName: body.client_bank_name,
  metadata: body.metadata,
};

async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

interface Variant {
  name: string;
  /** Run on the copy before it is measured. */
  off: string;
}

/** The whole statement, each row trigger of the QR code's tables off alone and together, each secondary index dropped. */
async function variantsOf(templateUrl: string): Promise<Variant[]> {
  return onDatabase(templateUrl, async (client) => {
    const triggers = await client.query<{ t: string; name: string }>(
      `SELECT tgrelid::regclass::text AS t, tgname AS name FROM pg_trigger
       WHERE NOT tgisinternal AND tgrelid::regclass::text = ANY($1) AND tgtype & 1 = 1 AND tgtype & 4 = 4 ORDER BY 1, 2`,
      [QR_TABLES],
    );
    const indexes = await client.query<{ name: string }>(
      `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
       WHERE i.indrelid::regclass::text = ANY($1) AND NOT i.indisprimary AND NOT i.indisunique ORDER BY 1`,
      [QR_TABLES],
    );
    const disable = triggers.rows.map(({ t, name }) => `ALTER TABLE ${t} DISABLE TRIGGER ${name}`);
    return [
      { name: 'the whole statement', off: '' },
      ...triggers.rows.map(({ t, name }, n) => ({ name: `without trigger ${name} (${t})`, off: disable[n]! })),
      { name: 'without every row trigger', off: disable.join('; ') },
      ...indexes.rows.map(({ name }) => ({ name: `without index ${name}`, off: `DROP INDEX ${name}` })),
    ];
  });
}

/** Backend CPU µs per QR statement on a fresh copy of the template with the variant applied. */
async function measure(template: string, merchantId: string, variant: Variant): Promise<number> {
  const copy = await createScratchDatabase('pqr_parts_copy', adminDatabaseUrl(), template);
  try {
    await onDatabase(adminDatabaseUrl(), (admin) => admin.query(`ALTER DATABASE ${copy.name} SET synchronous_commit = off`));
    if (variant.off) await onDatabase(copy.url, (client) => client.query(variant.off));
    const runtime = await openRuntime(loadConfig({ DATABASE_URL: copy.url, LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
    try {
      const s = runtime.services;
      const merchant = await s.uow.repos.merchants.findById(merchantId);
      if (!merchant) throw new Error(`no merchant ${merchantId} in the copy`);
      const one = async () => {
        const { committed } = await s.uow.runInOneStatement((writes) => createQrCode(writes, s, merchant, REQUEST));
        if (!committed) throw new Error('a QR statement wrote nothing');
      };
      for (let i = 0; i < WARMUP; i++) await one();
      const before = await backendsCpuMs(copy.name);
      for (let i = 0; i < STATEMENTS; i++) await one();
      return ((await backendsCpuMs(copy.name)) - before) * (1000 / STATEMENTS);
    } finally {
      await runtime.close();
    }
  } finally {
    await copy.drop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const cleanup = cleanupRegistry();
try {
  const template = await createScratchDatabase('pqr_parts');
  cleanup.add(() => template.drop());
  const { id: merchantId } = await merchantOn(template.url);
  const only = flags.only?.split(',').filter(Boolean);
  const variants = (await variantsOf(template.url)).filter((v) => v.off === '' || !only || only.some((word) => v.name.includes(word)));
  const costs = new Map<Variant, number[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) costs.get(variant)!.push(await measure(template.name, merchantId, variant));
  }
  const whole = median(costs.get(variants[0]!)!);
  console.log(`${STATEMENTS} QR statements one after another per run, ${ROUNDS} rounds (medians), ${new Date().toISOString()}\n`);
  console.log('| variant (a fresh copy each run) | backend CPU µs per QR [rounds] | its part |\n|---|---|---|');
  for (const [variant, runs] of costs) {
    const part = variant.off === '' ? '' : `${(whole - median(runs)).toFixed(0)} µs`;
    console.log(`| ${variant.name} | ${median(runs).toFixed(0)} [${runs.map((us) => us.toFixed(0)).join(' ')}] | ${part} |`);
  }
} finally {
  await cleanup.run();
}
