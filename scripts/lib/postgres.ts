import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where scripts find PostgreSQL: DATABASE_URL, else the local trust-auth superuser. */
export const adminDatabaseUrl = (): string => process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops it (WITH FORCE, so lingering connections do not block); safe to call twice. */
  drop(): Promise<void>;
}

async function onAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A new database `<prefix>_<random>` on the same server as adminUrl: empty, or a copy of `template` (a database nobody is connected to). */
export async function createScratchDatabase(prefix: string, adminUrl = adminDatabaseUrl(), template?: string): Promise<ScratchDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`scratch database prefix '${prefix}' must be a lowercase identifier`);
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | null = null;
  return {
    name,
    url: url.toString(),
    drop: () =>
      (dropped ??= onAdmin(adminUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      })),
  };
}
