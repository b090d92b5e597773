import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/adapters/postgres/database.js';
import { migrationNames } from '../../src/adapters/postgres/migrations.js';
import { openFreshDatabase, openV11Database, type OpenedDatabase } from '../support/databases.js';
import { freshPostgresDatabase } from '../support/test-server.js';

const opened: OpenedDatabase[] = [];
afterAll(async () => {
  for (const database of opened.reverse()) await database.close();
});
const open = async (database: Promise<OpenedDatabase>): Promise<Database> => {
  const done = await database;
  opened.push(done);
  return done.db;
};

const rows = async (knex: Knex, sql: string): Promise<string[]> => (await knex.raw<{ rows: { d: string }[] }>(sql)).rows.map((row) => row.d).sort();

/** Everything a migration can make, as the server describes it: tables, columns, constraints, indexes, code. */
async function schemaOf(knex: Knex) {
  return {
    columns: await rows(
      knex,
      `SELECT concat_ws(' ', table_name, ordinal_position, column_name, data_type, is_nullable, column_default) AS d
      FROM information_schema.columns WHERE table_schema = 'public'`,
    ),
    constraints: await rows(
      knex,
      `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS d
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace`,
    ),
    indexes: await rows(knex, `SELECT indexdef AS d FROM pg_indexes WHERE schemaname = 'public'`),
    triggers: await rows(knex, 'SELECT pg_get_triggerdef(oid) AS d FROM pg_trigger WHERE NOT tgisinternal'),
    functions: await rows(knex, `SELECT pg_get_functiondef(oid) AS d FROM pg_proc WHERE pronamespace = 'public'::regnamespace`),
    views: await rows(knex, `SELECT viewname || ' ' || definition AS d FROM pg_views WHERE schemaname = 'public'`),
    sequences: await rows(knex, `SELECT sequence_name || ' ' || data_type AS d FROM information_schema.sequences WHERE sequence_schema = 'public'`),
    migrations: await rows(knex, 'SELECT name AS d FROM knex_migrations'),
  };
}

describe('migrations', () => {
  it('are one file each, applied in file order, and a fresh database records every one', async () => {
    const names = migrationNames();
    expect(names.slice(0, 12)).toEqual([
      '0001_payments',
      '0002_webhooks',
      '0003_transaction_counts',
      '0004_events_fan_out',
      '0005_balance',
      '0006_bank_connection',
      '0007_webhooks_self_service',
      '0008_api_keys',
      '0009_checkout',
      '0010_hot_path',
      '0011_lean_writes',
      '0012_count_changes',
    ]);
    expect(names.map((name) => Number(name.slice(0, 4)))).toEqual(names.map((_, i) => i + 1));
    const fresh = await open(openFreshDatabase({ fromZero: true }));
    expect((await schemaOf(fresh.knex)).migrations).toEqual([...names].sort());
  });

  it('bring a database made by the v1.1 release to exactly the schema of a fresh one', async () => {
    const [fresh, upgraded] = await Promise.all([open(openFreshDatabase({ fromZero: true })), open(openV11Database())]);
    const [want, got] = await Promise.all([schemaOf(fresh.knex), schemaOf(upgraded.knex)]);
    expect(want.functions.length).toBeGreaterThan(5);
    expect(got).toEqual(want);
  }, 120_000); // two databases built from zero through 26 migrations at once: about 35 s on two cores

  // Only PostgreSQL is shared: the embedded database belongs to one process.
  const postgresUrl = process.env.DATABASE_URL;
  if (postgresUrl)
    it('run once when several instances open one fresh PostgreSQL database at once', async () => {
      const database = await freshPostgresDatabase(postgresUrl);
      const instances = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ kind: 'postgres', url: database.url })));
      const started = instances.flatMap((instance) => (instance.status === 'fulfilled' ? [instance.value] : []));
      opened.push({ db: started[0]!, close: async () => (await Promise.all(started.map((db) => db.close())), await database.drop()) });
      // Without waiting their turn, the instances that met knex's migration lock taken would give up.
      expect(instances.filter((instance) => instance.status === 'rejected')).toEqual([]);
      expect((await schemaOf(started[0]!.knex)).migrations).toEqual([...migrationNames()].sort());
    });
});
