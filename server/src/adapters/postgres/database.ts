import { mkdirSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';

// COUNT(*) is bigint; every count we read fits in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'embedded'; dataDir: string | null }; // null: in memory (tests)

export interface Database {
  knex: Knex;
  kind: DatabaseTarget['kind'];
  close(): Promise<void>;
}

/** Opens PostgreSQL through `pg`, or the embedded PGlite, and brings the schema up to date. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const knex =
    target.kind === 'postgres'
      ? knexFactory({
          client: 'pg',
          connection: target.url,
          pool: { min: 0, max: target.poolSize ?? 10 },
          acquireConnectionTimeout: 5_000,
        })
      : knexFactory({
          // Loaded only for the embedded database: a server on PostgreSQL never holds PGlite in memory.
          client: (await import('knex-pglite')).default,
          dialect: 'postgres',
          connection: target.dataDir ? { filename: ensureDir(target.dataDir) } : {},
        } as Knex.Config);
  await migrateToLatest(knex);
  return { knex, kind: target.kind, close: () => knex.destroy() };
}

function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
