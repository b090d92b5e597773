/**
 * What the benches (run.ts, backend-cost.ts) read off the processes they measure and off PostgreSQL, and the server
 * they measure: started with `npm start`'s node flags, with one merchant made through the server's own code.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createMerchant } from '../../server/src/app/merchants.js';
import { loadConfig } from '../../server/src/config.js';
import { openRuntime } from '../../server/src/main.js';
import { adminDatabaseUrl } from '../lib/postgres.js';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** The node flags of `npm start` (`node --flag... server/dist/main.js` in package.json): the server is measured as it runs. */
export function startNodeFlags(): string {
  const { scripts } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return (scripts.start ?? '')
    .split(' ')
    .filter((word) => word.startsWith('--'))
    .join(' ');
}

/** Creates the merchant (and, on a fresh database, the schema) through the server's own code, then closes. */
export async function merchantOn(databaseUrl: string): Promise<{ id: string; apiKey: string; promptPayId: string }> {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
  try {
    const promptPayId = '0812345678';
    const { merchant, apiKey } = await createMerchant(runtime.services, { name: 'Bench', mode: 'test', account: { kind: 'promptpay_id', id: promptPayId } });
    return { id: merchant.id, apiKey, promptPayId };
  } finally {
    await runtime.close();
  }
}

/** CPU time (user + system) a process has used, ms (Linux /proc; 0 elsewhere, or once it has ended). */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime and stime, in clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/** CPU time (user + system) every PostgreSQL backend of the database has used, ms; a backend that has ended counts 0. */
export async function backendsCpuMs(database: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    return rows.reduce((sum, { pid }) => sum + cpuMsOf(pid), 0);
  } finally {
    await client.end();
  }
}

/** WAL written so far by the whole PostgreSQL cluster (PostgreSQL 14+). */
export async function walSoFar(): Promise<{ bytes: number; records: number }> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string; records: string }>('SELECT wal_bytes::text AS bytes, wal_records::text AS records FROM pg_stat_wal');
    return { bytes: Number(rows[0]!.bytes), records: Number(rows[0]!.records) };
  } finally {
    await client.end();
  }
}

/**
 * A backend adds its WAL to pg_stat_wal at most once a second, and an idle one within a second: read after a pause,
 * the figures hold all the WAL of the requests before (the warm-up's too) and none of the ones after.
 */
const STATS_SETTLE_MS = 1_500;
export const settled = () => new Promise((done) => setTimeout(done, STATS_SETTLE_MS));
