import { readdirSync } from 'node:fs';
import type { Knex } from 'knex';

interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
}

/** One file per migration, `NNNN_what.ts`, applied in file order (see migrations/README.md). */
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.ts$/;

/** The names the v1.1 release recorded for the migrations now in files 0001 to 0012. */
const namesBeforeFiles: Record<string, string> = {
  '001_payments': '0001_payments',
  '002_webhooks': '0002_webhooks',
  '003_transaction_counts': '0003_transaction_counts',
  '004_events_fan_out': '0004_events_fan_out',
  v11_balance: '0005_balance',
  v11_bank_connection: '0006_bank_connection',
  v11_webhooks_self_service: '0007_webhooks_self_service',
  v11_api_keys: '0008_api_keys',
  v11_checkout: '0009_checkout',
  v11_hot_path: '0010_hot_path',
  v11_lean_writes: '0011_lean_writes',
  v11_count_changes: '0012_count_changes',
};

export function migrationNames(): string[] {
  const files = readdirSync(new URL('./migrations/', import.meta.url));
  return files.flatMap((file) => MIGRATION_FILE.exec(file)?.[1] ?? []).sort();
}

// The template names a folder and a .ts suffix, so the server's bundle (esbuild) carries every migration file.
const loadMigration = async (name: string): Promise<Migration> => ({ name, up: ((await import(`./migrations/${name}.ts`)) as Pick<Migration, 'up'>).up });

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrationNames(),
  getMigrationName: (name) => name,
  getMigration: async (name) => ({ up: (await loadMigration(name)).up, down: async () => undefined }),
};

/** A database made before migrations had files records them under their earlier names: it gets the new ones. */
async function renameEarlierMigrations(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('knex_migrations'))) return;
  for (const [before, now] of Object.entries(namesBeforeFiles)) await knex('knex_migrations').where({ name: before }).update({ name: now });
}

/** The same number in every instance: the advisory lock under which one database's migrations run. */
const MIGRATIONS_LOCK = 7_482_016_110;

/**
 * Brings the schema up to date. Instances starting at once (WEB_CONCURRENCY, two servers and two workers, a deploy)
 * queue on a PostgreSQL advisory lock held for the whole run: each waits for the one before however long its migrations
 * take, then finds nothing left to do. (knex's own lock refuses at once instead of waiting.) The embedded database
 * belongs to one process and has one connection: it needs no lock.
 */
export async function migrateToLatest(knex: Knex, shared: boolean): Promise<void> {
  const migrate = async () => {
    await renameEarlierMigrations(knex);
    await knex.migrate.latest({ migrationSource });
  };
  if (!shared) return migrate();
  await knex.transaction(async (lock) => {
    await lock.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATIONS_LOCK]);
    await migrate(); // on the pool's other connections; the lock's transaction ends after them
  });
}
