import pino, { type Logger } from 'pino';
import { createApiKey } from '../../src/app/api-keys.js';
import { createMerchant } from '../../src/app/merchants.js';
import { loadConfig } from '../../src/config.js';
import { operatorContext, type AuditEntry } from '../../src/domain/audit.js';
import type { PayoutAccount } from '../../src/domain/payout-account.js';
import type { Permission } from '../../src/domain/permissions.js';
import type { PromptPayAccount } from '../../src/domain/promptpay-payload.js';
import { startServer, type RunningServer } from '../../src/main.js';
import type { CustomerBank } from '../../src/ports/bank.js';
import type { Clock } from '../../src/ports/clock.js';
import { apiClient, type ApiClient } from './http.js';
import { createTestDatabase, migratedSnapshot } from './migrated-start.js';
import { sharedByFile } from './shared-by-file.js';

/** A clock the test moves by hand. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void; set(date: Date): void } {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms) => void (now += ms), set: (date) => void (now = date.getTime()) };
}

/**
 * On PostgreSQL each test server gets a database of its own, so no test can disturb another's rows: empty, or with
 * `migrated` a copy of the run's migrated template (./migrated-start.ts). The run's global teardown drops it, or `drop`.
 */
export async function freshPostgresDatabase(url: string, options: { migrated?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  return createTestDatabase(url, { migrated: options.migrated ?? false });
}

export interface TestServer {
  url: string;
  running: RunningServer;
  /** A new merchant with its own test key: every test makes the records it reads. */
  merchant(options?: MerchantOptions): Promise<{ id: string; apiKey: string }>;
  /** One more key for the merchant, as the operator's `keys create`: restricted to `permissions` (an `rk_` key), or unrestricted when null. */
  apiKey(merchantId: string, permissions: Permission[] | null): Promise<string>;
  /** The merchant's audit log, newest first (it is not part of the API). */
  auditEntries(merchantId: string): Promise<AuditEntry[]>;
  stop(): Promise<void>;
}

export interface MerchantOptions {
  mode?: 'test' | 'live';
  /** As the operator's --promptpay-id; none, as by default: test QR codes name a proxy no bank can hold. */
  account?: PromptPayAccount;
  name?: string;
  /** As the operator sets them with the CLI. */
  feeBps?: number;
  payoutAccount?: PayoutAccount;
}

export interface TestServerOptions {
  clock?: Clock;
  bank?: CustomerBank;
  env?: Record<string, string>;
  /** Check every response against the contract inside the server (default); conformance judges from outside instead. */
  validateResponses?: boolean;
  /** False: no payout rail or bank reconciliation running beside the requests. */
  backgroundJobs?: boolean;
  /** The server's logger (a test that reads the log lines passes one writing to a stream of its own). */
  logger?: Logger;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // A test that names its own DATABASE_URL (servers it made) needs no database on the shared one.
  const postgres = process.env.DATABASE_URL && !options.env?.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, { migrated: true }) : null;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    WEBHOOK_DISPATCHER: 'off',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '0', // tests send bursts; the rate limit's own tests turn it on
    AUTH_FAILURE_LIMIT_PER_SECOND: '0', // likewise for failed authentications
    EMBEDDED_SHARED_BUFFERS: '16MB', // PGlite clears its buffer pool at every start: 128MB took about 0.1 CPU s each time
    SANDBOX_PAYOUT_INTERVAL_MS: '50', // a test withdrawal paid out in about 0.1 s, not 1 s (two steps of the rail)
    PASSWORD_HASH_COST: '10', // dashboard passwords at scrypt N=2^10 (production's 2^15 is about 50 CPU ms a hash); the hash names its cost
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  const running = await startServer(config, {
    clock: options.clock,
    bank: options.bank,
    validateResponses: options.validateResponses ?? true,
    backgroundJobs: options.backgroundJobs,
    embeddedSnapshot: migratedSnapshot(),
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  return {
    url: running.url,
    running,
    async merchant({ mode = 'test', account, name = 'Test merchant', feeBps, payoutAccount }: MerchantOptions = {}) {
      const { merchant, apiKey } = await createMerchant(running.runtime.services, { name, mode, account, feeBps, payoutAccount });
      return { id: merchant.id, apiKey };
    },
    async apiKey(merchantId, permissions) {
      return (await createApiKey(running.runtime.services, merchantId, permissions, operatorContext)).apiKey;
    },
    async auditEntries(merchantId) {
      return (await running.runtime.services.uow.repos.audit.list(merchantId, {}, { limit: 1000, offset: 0 })).items;
    },
    async stop() {
      await running.stop();
      await postgres?.drop();
    },
  };
}

/** The file's server, a merchant on it (`merchant`: how the operator made it) and that merchant's API client. */
export function usingTestServer(options: TestServerOptions & { merchant?: MerchantOptions } = {}): {
  server: TestServer;
  merchant: { id: string; apiKey: string };
  api: ApiClient;
} {
  const server = sharedByFile(
    'the test server',
    () => startTestServer(options),
    (started) => started.stop(),
  );
  const merchant = sharedByFile('the merchant', () => server.merchant(options.merchant));
  const api = sharedByFile('the API client', async () => apiClient(server.url, merchant));
  return { server, merchant, api };
}
