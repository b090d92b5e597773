import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/adapters/postgres/database.js';
import { migratedSnapshot } from './migrated-start.js';
import { freshPostgresDatabase } from './test-server.js';

/** The schema of a database the v1.1 release made, with the migrations it recorded (pg_dump of PostgreSQL 15). */
const v11Database = readFileSync(new URL('../fixtures/v1.1-database.sql', import.meta.url), 'utf8');

export interface OpenedDatabase {
  db: Database;
  close(): Promise<void>;
}

/**
 * A database the v1.1 release made, with `rows` (SQL) written as v1.1 would have, then opened by today's code, which
 * migrates it: PostgreSQL when DATABASE_URL is set (a database of its own), else PGlite in a scratch directory.
 */
export async function openV11Database(rows = ''): Promise<OpenedDatabase> {
  if (process.env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase(process.env.DATABASE_URL);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    await client.query(v11Database);
    if (rows) await client.query(rows);
    await client.end();
    const db = await openDatabase({ kind: 'postgres', url: fresh.url });
    return { db, close: async () => (await db.close(), await fresh.drop()) };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'pqr-v11-'));
  const loader = new PGlite(dataDir);
  await loader.exec(v11Database);
  if (rows) await loader.exec(rows);
  await loader.close();
  const db = await openDatabase({ kind: 'embedded', dataDir });
  return { db, close: async () => (await db.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

/**
 * A fresh database opened by today's code, of the kind the tests run on: a copy of the run's migrated one, or with
 * `fromZero` (the tests about migrations) an empty one that every migration runs on.
 */
export async function openFreshDatabase({ fromZero = false }: { fromZero?: boolean } = {}): Promise<OpenedDatabase> {
  if (process.env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase(process.env.DATABASE_URL, { migrated: !fromZero });
    const db = await openDatabase({ kind: 'postgres', url: fresh.url });
    return { db, close: async () => (await db.close(), await fresh.drop()) };
  }
  const db = await openDatabase({ kind: 'embedded', dataDir: null, snapshot: fromZero ? undefined : migratedSnapshot() });
  return { db, close: () => db.close() };
}
