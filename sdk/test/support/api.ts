import { PaymentQrClient, type PaymentQrClientOptions } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';

export type { TestServer };

/**
 * The real server, in-process, on an embedded database (or a fresh PostgreSQL database when DATABASE_URL
 * is set). Private webhook URLs are allowed: the sandbox has no DNS, and receivers in tests are local.
 */
export const startApi = (env: Record<string, string> = {}): Promise<TestServer> => startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...env } });

/** A client for a brand-new merchant, so that each test reads only the records it made. */
export async function clientForNewMerchant(server: TestServer, options: Omit<PaymentQrClientOptions, 'apiKey' | 'baseUrl'> = {}): Promise<PaymentQrClient> {
  const { apiKey } = await server.merchant();
  return new PaymentQrClient({ apiKey, baseUrl: server.url, ...options });
}
