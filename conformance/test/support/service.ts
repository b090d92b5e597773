import { createMerchant } from '../../../server/src/app/merchants.js';
import type { Merchant } from '../../../server/src/domain/merchant.js';
import type { RunningServer } from '../../../server/src/main.js';
import type { Clock } from '../../../server/src/ports/clock.js';
import { startTestServer } from '../../../server/test/support/test-server.js';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { bankSettings, callbackUrlOf, scbEnv } from '../../../server/test/support/bank.js';

export interface Service {
  /** Origin of the running API, e.g. http://127.0.0.1:40123. */
  url: string;
  running: RunningServer;
  /** The service's bank (BANK=scb): an SCB simulator that sends no confirmations by itself. */
  bank: BankSimulator;
  /** Where the bank posts confirmations (the callback URL registered with it). */
  bankCallbackUrl: string;
  /** A new merchant with its own key: every check makes the records it reads. */
  merchant(mode?: 'test' | 'live'): Promise<{ merchant: Merchant; apiKey: string }>;
  stop(): Promise<void>;
}

/**
 * The real service, as deployed: real adapters, real database (in-memory PGlite, or a fresh PostgreSQL database when
 * DATABASE_URL is set), no response validation of its own, so the contract checks here are the only judge.
 */
export async function startService(options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<Service> {
  const bank = await startBankSimulator({ ...bankSettings });
  const server = await startTestServer({
    clock: options.clock,
    validateResponses: false,
    // Webhook URLs in the pacts point at 127.0.0.1: no DNS, no public host needed (the documented test setting).
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...scbEnv(bank), ...options.env },
  });
  return {
    url: server.url,
    running: server.running,
    bank,
    bankCallbackUrl: callbackUrlOf(server.url),
    merchant: (mode = 'test') =>
      createMerchant(server.running.runtime.services, { name: 'Conformance merchant', mode, account: { kind: 'promptpay_id', id: '0812345678' } }),
    stop: async () => {
      await server.stop();
      await bank.stop();
    },
  };
}
