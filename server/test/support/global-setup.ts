/**
 * Vitest global setup of the packages whose tests start servers (see ./migrated-start.ts): migrates once per run, from
 * zero, and hands the workers a PGlite snapshot and, on PostgreSQL, a template database. The teardown removes them
 * and this run's test databases.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import KnexPGlite from 'knex-pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/adapters/postgres/database.js';
import { migrateToLatest } from '../../src/adapters/postgres/migrations.js';
import { adminQuery } from './migrated-start.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = randomBytes(4).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'pqr-snapshot-'));
  // initdb first, outside knex's wait for a connection (a minute, which a busy machine's initdb can take).
  const pglite = await PGlite.create();
  const embedded = knex({ client: KnexPGlite, dialect: 'postgres', connection: { pglite } } as Knex.Config);
  await migrateToLatest(embedded, false);
  const snapshot = join(dir, 'migrated.tar');
  writeFileSync(snapshot, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await embedded.destroy();
  project.provide('pgliteSnapshot', snapshot);

  const url = process.env.DATABASE_URL;
  const template = `pqr_template_${run}`;
  const prefix = `pqr_test_${run}_`;
  if (url) {
    await adminQuery(url, `CREATE DATABASE ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const migrated = await openDatabase({ kind: 'postgres', url: templateUrl.toString() });
    await migrated.close();
  }
  project.provide('postgresTemplate', url ? { template, prefix } : null);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (!url) return;
    const made = await adminQuery(url, `SELECT datname FROM pg_database WHERE starts_with(datname, '${prefix}') OR datname = '${template}'`);
    for (const { datname } of made) await adminQuery(url, `DROP DATABASE IF EXISTS ${datname as string} WITH (FORCE)`);
  };
}
