import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createMerchant } from '../../../server/src/app/merchants.js';
import { loadConfig } from '../../../server/src/config.js';
import type { Merchant } from '../../../server/src/domain/merchant.js';
import { startServer, type RunningServer } from '../../../server/src/main.js';
import type { Clock } from '../../../server/src/ports/clock.js';

/** On PostgreSQL every service gets a database of its own, so no run can disturb another's rows. */
async function freshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pqr_conformance_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface Service {
  /** Origin of the running API, e.g. http://127.0.0.1:40123. */
  url: string;
  running: RunningServer;
  /** A new merchant with its own key: every check makes the records it reads. */
  merchant(mode?: 'test' | 'live'): Promise<{ merchant: Merchant; apiKey: string }>;
  stop(): Promise<void>;
}

/**
 * The real service, as deployed: real adapters, real database (in-memory PGlite, or a fresh PostgreSQL database when
 * DATABASE_URL is set), no response validation of its own, so the contract checks here are the only judge.
 */
export async function startService(options: { clock?: Clock } = {}): Promise<Service> {
  const postgres = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : null;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    // Nothing leaves the process: no deliveries, no sweeper racing the checks.
    WEBHOOK_DISPATCHER: 'off',
    // Webhook URLs in the pacts point at 127.0.0.1: no DNS, no public host needed (the documented test setting).
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'silent',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  });
  const running = await startServer(config, { clock: options.clock, validateResponses: false });
  return {
    url: running.url,
    running,
    merchant: (mode = 'test') =>
      createMerchant(running.runtime.services, { name: 'Conformance merchant', mode, account: { kind: 'promptpay_id', id: '0812345678' } }),
    async stop() {
      await running.stop();
      await postgres?.drop();
    },
  };
}
