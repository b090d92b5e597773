/**
 * Vitest global setup of the packages whose tests start servers (see ./migrated-start.ts): hands the workers the
 * migrated PGlite snapshot of this code (./migrated-snapshot-file.ts: made from zero by the first run of this code)
 * and, on PostgreSQL, a template database it migrates from zero. The teardown removes the template and this run's
 * test databases.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/adapters/postgres/database.js';
import { adminQuery } from './migrated-start.js';
import { migratedSnapshotFile } from './migrated-snapshot-file.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = randomBytes(4).toString('hex');
  project.provide('pgliteSnapshot', await migratedSnapshotFile());

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
    if (!url) return;
    const made = await adminQuery(url, `SELECT datname FROM pg_database WHERE starts_with(datname, '${prefix}') OR datname = '${template}'`);
    for (const { datname } of made) await adminQuery(url, `DROP DATABASE IF EXISTS ${datname as string} WITH (FORCE)`);
  };
}
