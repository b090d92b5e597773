import pino from 'pino';
import { LOCAL_BANK, LOCAL_CALLBACK_PATH, scbServiceEnv, startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { createApiKey } from '../../../server/src/app/api-keys.js';
import { createMerchant, setFeeBps, setPayoutAccount } from '../../../server/src/app/merchants.js';
import { issueTaxInvoices, setTaxDetails } from '../../../server/src/app/tax-invoices.js';
import { operatorContext } from '../../../server/src/domain/audit.js';
import { parsePermissions } from '../../../server/src/domain/permissions.js';
import { bangkokMonthOf } from '../../../server/src/domain/statement.js';
import { loadConfig } from '../../../server/src/config.js';
import { startServer, type RunningServer } from '../../../server/src/main.js';
import { createTestDatabase, migratedSnapshot } from '../../../server/test/support/migrated-start.js';
import type { ManualClock, Target } from '../../src/target.js';

export interface Service {
  url: string;
  /** What the kit points at: the service, with the operator's powers a URL never has. */
  target: Target;
  running: RunningServer;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  clock?: ManualClock;
  env?: Record<string, string>;
  /** BANK=scb, with an SCB simulator that sends no confirmation by itself. */
  bank?: boolean;
  /** The webhook dispatcher runs, and a receiver on loopback takes its deliveries. */
  dispatcher?: boolean;
}

/** A clock the check moves by hand (a port of the service): several records can share one creation time. */
export function manualClock(start: Date): ManualClock {
  let now = start.getTime();
  return { now: () => new Date(now), set: (at) => void (now = at.getTime()) };
}

const PAYOUT_ACCOUNT = { bankCode: '014', accountNumber: '1234567890', accountName: 'Noodle Shop Co., Ltd.' };
/** Merchants pay no fee unless a check asks the operator for one (then 3 %, and tax details for their invoices). */
const FEE_BPS = 300;
const TAX_DETAILS = { taxId: '0994000165510', address: '99 Sukhumvit Road, Khlong Toei, Bangkok 10110', branch: '00000' };
/** The seller on tax invoices. */
const OPERATOR = { OPERATOR_NAME: 'Payment QR Co., Ltd.', OPERATOR_ADDRESS: '1 Silom Road, Bang Rak, Bangkok 10500', OPERATOR_TAX_ID: '0105536092641' };

/**
 * The real service, started through its own composition root (startServer with a config): real adapters, a real
 * database (in-memory PGlite, or a PostgreSQL database of its own when DATABASE_URL is set, each a copy of the run's
 * migrated snapshot or template: server/test/support/migrated-start.ts), no response validation of its
 * own, so the kit's checks are the only judge. The rate limit is on but out of reach, so its fields are on every answer.
 */
export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const bank: BankSimulator | null = options.bank ? await startBankSimulator({ ...LOCAL_BANK }) : null;
  const postgres = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL, { migrated: true }) : null;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    WEBHOOK_DISPATCHER: options.dispatcher ? 'on' : 'off',
    // Webhook URLs in the pacts point at 127.0.0.1: no DNS, no public host needed (the documented test setting).
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    RATE_LIMIT_PER_SECOND: '1000000',
    EMBEDDED_SHARED_BUFFERS: '16MB', // a smaller buffer pool to clear at start (server/test/support/test-server.ts)
    SANDBOX_PAYOUT_INTERVAL_MS: '50', // the kit's paid-out withdrawals in about 0.1 s, not 1 s
    ...OPERATOR,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...(bank ? scbServiceEnv(bank.url, 3_600_000) : {}),
    ...options.env,
  });
  const running = await startServer(config, {
    clock: options.clock,
    validateResponses: false,
    embeddedSnapshot: migratedSnapshot(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  const { services } = running.runtime;
  const target: Target = {
    baseUrl: running.url,
    operator: {
      async newMerchant({ live = false } = {}) {
        const { merchant, apiKey } = await createMerchant(services, {
          name: 'Conformance merchant',
          mode: live ? 'live' : 'test',
          account: { kind: 'promptpay_id', id: '0812345678' },
        });
        return { merchantId: merchant.id, apiKey };
      },
      async setPayoutAccount(merchantId) {
        await setPayoutAccount(services, merchantId, PAYOUT_ACCOUNT);
      },
      async restrictedKey(merchantId, permissions) {
        return (await createApiKey(services, merchantId, parsePermissions(permissions.join(',')), operatorContext)).apiKey;
      },
      async chargeFees(merchantId) {
        await setFeeBps(services, merchantId, FEE_BPS);
        await setTaxDetails(services, merchantId, TAX_DETAILS);
      },
      async issueTaxInvoices() {
        await issueTaxInvoices(services, bangkokMonthOf(services.clock.now()), operatorContext);
      },
    },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(bank ? { bank: { pay: (qrData: string) => bank.pay({ qr_data: qrData }), callbackPath: LOCAL_CALLBACK_PATH } } : {}),
    ...(config.rateLimitPerSecond === 1 ? { rateLimitPerSecond: 1 } : {}),
    deliveriesWait: !options.dispatcher,
    ...(options.dispatcher ? { receiver: { host: '127.0.0.1', port: 0 } } : {}),
  };
  return {
    url: running.url,
    target,
    running,
    async stop() {
      await running.stop();
      await postgres?.drop();
      await bank?.stop();
    },
  };
}
