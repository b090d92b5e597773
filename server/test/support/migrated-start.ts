/**
 * One migrated database per test run, instead of initdb and every migration per server (see docs/testing.md):
 *
 * - PGlite: the run's global setup (./global-setup.ts) migrates an in-memory PGlite once and dumps its data directory;
 *   each test's in-memory database starts from that dump (`loadDataDir`), and a CLI's new data directory is unpacked
 *   from it before the CLI opens it.
 * - PostgreSQL: the global setup migrates a template database once; each test's database is a copy of it
 *   (`CREATE DATABASE ... TEMPLATE`), and is dropped by the global teardown, all at once, rather than one by one
 *   during the run (each DROP DATABASE forces a checkpoint).
 *
 * Without the global setup (a package whose vitest config does not list it) everything still works, from zero.
 * Tests about migrations start from zero on purpose: `openFreshDatabase({ fromZero: true })`, freshPostgresDatabase().
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the global setup wrote the migrated PGlite data directory (a tar from `dumpDataDir`). */
    pgliteSnapshot: string;
    /** The migrated template database on DATABASE_URL's server, and this run's prefix for the databases made from it. */
    postgresTemplate: { template: string; prefix: string } | null;
  }
}

/**
 * A tar held in memory, handed to PGlite as a Blob (all it reads of one is `arrayBuffer()`): Node's own Blob gives a
 * large in-memory blob back in chunks and joins them, about half a CPU second for this one at every server start,
 * where a copy of the bytes takes milliseconds.
 */
class HeldTar extends Blob {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    super([], { type: 'application/x-tar' });
    this.#bytes = bytes;
  }
  override get size(): number {
    return this.#bytes.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

let snapshot: { path: string; blob: Blob } | undefined;

/** The run's migrated PGlite data directory, read once per worker; undefined when no global setup made one. */
export function migratedSnapshot(): Blob | undefined {
  const path = inject('pgliteSnapshot');
  if (!path) return undefined;
  if (snapshot?.path !== path) snapshot = { path, blob: new HeldTar(readFileSync(path)) };
  return snapshot.blob;
}

/** Unpacks the run's migrated snapshot into `dataDir` (a new directory), so that a process opening it finds it migrated. */
export async function seedDataDir(dataDir: string): Promise<void> {
  const loadDataDir = migratedSnapshot();
  if (!loadDataDir) return;
  const pglite = new PGlite({ dataDir, loadDataDir });
  await pglite.waitReady;
  await pglite.close();
}

/** The database names a test makes on PostgreSQL: this run's prefix, so that the global teardown finds them. */
export function testDatabaseName(kind: 'test' | 'cli'): string {
  const run = inject('postgresTemplate')?.prefix ?? 'pqr_test_';
  return `${run}${kind === 'cli' ? 'cli_' : ''}${randomBytes(6).toString('hex')}`;
}

/**
 * A new database on `url`'s server: a copy of the run's migrated template when `migrated` and there is one, else empty.
 * `drop` removes it now unless the global teardown will (a database named with the run's prefix).
 */
export async function createTestDatabase(
  url: string,
  { migrated, kind = 'test' }: { migrated: boolean; kind?: 'test' | 'cli' },
): Promise<{ url: string; drop(): Promise<void> }> {
  const provided = inject('postgresTemplate');
  const name = testDatabaseName(kind);
  await adminQuery(url, `CREATE DATABASE ${name}${migrated && provided ? ` TEMPLATE ${provided.template}` : ''}`);
  const made = new URL(url);
  made.pathname = `/${name}`;
  return {
    url: made.toString(),
    drop: async () => {
      if (!provided) await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function adminQuery(url: string, sql: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
