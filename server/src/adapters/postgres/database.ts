import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { databaseHosts } from './hosts.js';
import { migrateToLatest } from './migrations.js';
import { multiHostClient, type MultiHostClient } from './multi-host-client.js';

// COUNT(*) is bigint; every count we read fits in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /**
   * dataDir null: in memory (tests). `snapshot`: a data directory PGlite dumped (`dumpDataDir`) that a new database
   * starts from, instead of an empty one. `sharedBuffers`: PostgreSQL's shared_buffers (EMBEDDED_SHARED_BUFFERS).
   */
  | { kind: 'embedded'; dataDir: string | null; snapshot?: Blob; sharedBuffers?: string };

export interface Database {
  knex: Knex;
  kind: DatabaseTarget['kind'];
  /** The host taking writes now (`host:port`), asked on a pooled connection; null for the embedded database. Rejects when none does. */
  writableHost(): Promise<string | null>;
  close(): Promise<void>;
}

/** The database could not be reached at all (refused, unknown host, no answer, credentials or database name refused). */
export class DatabaseUnreachableError extends Error {}

/** Why a first connection failed, in a few words: the driver's message, its code, or the pool's timeout. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'KnexTimeoutError') return 'no connection within 5 s';
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message.trim() : '';
  return text || (typeof code === 'string' ? code : 'the connection failed');
}

/** Opens PostgreSQL through `pg`, or the embedded PGlite, and brings the schema up to date. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const database = target.kind === 'postgres' ? openPostgres(target.url, target.poolSize ?? 10) : await openEmbedded(target);
  try {
    if (database.kind === 'postgres') await reachable(database.knex);
    await migrateToLatest(database.knex, database.kind === 'postgres');
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

/** One round trip before anything else, so that a database out of reach is told apart from a migration that failed. */
async function reachable(knex: Knex): Promise<void> {
  try {
    await knex.raw('select 1');
  } catch (error) {
    throw new DatabaseUnreachableError(reasonOf(error), { cause: error });
  }
}

/**
 * knex prints every failed connection with its stack; the caller is told the error anyway (and says it in one line at
 * start), so those stay quiet. Its other warnings go to stderr as before.
 */
const knexLog = {
  warn: (message: string) => {
    if (!String(message).startsWith('Acquire connection error')) console.warn(message);
  },
};

/** One host: knex's own client, as ever. Several: a client that finds the one accepting writes (./multi-host-client.ts). */
function openPostgres(url: string, poolSize: number): Database {
  const hosts = databaseHosts(url);
  const knex = knexFactory({
    client: hosts.length > 1 ? multiHostClient(hosts) : 'pg',
    connection: hosts.length > 1 ? {} : url,
    pool: { min: 0, max: poolSize },
    acquireConnectionTimeout: 5_000,
    log: knexLog,
  });
  return {
    knex,
    kind: 'postgres',
    writableHost: async () => {
      const connection = (await knex.client.acquireConnection()) as pg.Client & { __knex__disposed?: unknown };
      try {
        const { rows } = await connection.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
        if (rows[0]?.transaction_read_only !== 'off') {
          connection.__knex__disposed = 'the host turned read-only'; // the next acquire looks again
          throw Object.assign(new Error('The database host no longer accepts writes.'), { code: '25006' });
        }
        return hosts.length > 1 ? (knex.client as unknown as MultiHostClient).primaryOf(connection) : hosts[0]!.label;
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
    close: () => knex.destroy(),
  };
}

async function openEmbedded({ dataDir, snapshot, sharedBuffers = EMBEDDED_SHARED_BUFFERS }: Extract<DatabaseTarget, { kind: 'embedded' }>): Promise<Database> {
  // A data directory made before keeps its data; a new one starts from the snapshot when there is one.
  const startsFromSnapshot = snapshot && !(dataDir && existsSync(join(dataDir, 'PG_VERSION')));
  // Loaded only for the embedded database: a server on PostgreSQL never holds PGlite in memory.
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite({
    dataDir: dataDir ? ensureDir(dataDir) : undefined,
    loadDataDir: startsFromSnapshot ? snapshot : undefined,
    // PGlite's own start parameters, and the size of the buffer pool it clears at every start.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
  });
  const knex = knexFactory({ client: (await import('knex-pglite')).default, dialect: 'postgres', connection: { pglite } } as Knex.Config);
  return {
    knex,
    kind: 'embedded',
    writableHost: async () => {
      await knex.raw('select 1');
      return null;
    },
    close: () => knex.destroy(),
  };
}

/** PGlite's own default: a deployment on the embedded database keeps it; the test suites, which start hundreds, use less. */
export const EMBEDDED_SHARED_BUFFERS = '128MB';

function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
