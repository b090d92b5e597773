import { RequestSender, type FetchFunction } from './http.js';
import { Balance } from './resources/balance.js';
import { Events } from './resources/events.js';
import { Payments } from './resources/payments.js';
import { QrCodes } from './resources/qr-codes.js';
import { Refunds } from './resources/refunds.js';
import { Reports } from './resources/reports.js';
import { SlipVerifications } from './resources/slip-verifications.js';
import { TestHelpers } from './resources/test-helpers.js';
import { Tills } from './resources/tills.js';
import { Transactions } from './resources/transactions.js';
import { Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

export interface PaymentQrClientOptions {
  /**
   * Your secret key, `sk_test_...` (sandbox) or `sk_live_...`, or a restricted key `rk_test_...` / `rk_live_...` that
   * may call only the operations its permissions allow (others reject with PermissionError). Keep it on your server.
   */
  apiKey: string;
  /**
   * Where the service runs, with the path prefix of a gateway or mock if there is one
   * (`https://gw.example.com/payment-qr`); the SDK adds `/Thai/v1`. A URL ending in `/Thai/v1` is taken as that
   * base itself. Required: the SDK does not guess where your service runs.
   */
  baseUrl: string;
  /** Milliseconds to wait for each attempt's answer before it counts as a time-out. Default 30000. */
  timeout?: number;
  /** Retries after a failed first attempt (connection error, time-out, 409 in use, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** A Fetch API implementation. Default: the global `fetch` (Node 20, browsers, edge runtimes). */
  fetch?: FetchFunction;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
const API_PATH = '/Thai/v1';
const OPTION_NAMES: ReadonlySet<string> = new Set<keyof PaymentQrClientOptions>(['apiKey', 'baseUrl', 'timeout', 'maxRetries', 'fetch']);
const API_KEY = /^[sr]k_(test|live)_[A-Za-z0-9_-]+$/;

interface ResolvedOptions {
  apiKey: string;
  origin: string;
  timeout: number;
  maxRetries: number;
  fetch: FetchFunction;
}

/** Checks the options once, when the client is made, so that a typo fails at start-up, not at the first payment. */
function resolveOptions(options: PaymentQrClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('PaymentQrClient needs an options object: { apiKey, baseUrl }.');
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`Unknown PaymentQrClient option '${name}'. Known options: ${[...OPTION_NAMES].join(', ')}.`);
  }
  const { apiKey, baseUrl, timeout = DEFAULT_TIMEOUT_MS, maxRetries = DEFAULT_MAX_RETRIES } = options;
  if (typeof apiKey !== 'string' || apiKey === '')
    throw new TypeError('PaymentQrClient option apiKey is required: your secret key, sk_test_... or sk_live_... (or a restricted rk_ key).');
  // The key itself is never put in a message: messages end up in logs.
  if (!API_KEY.test(apiKey))
    throw new TypeError('PaymentQrClient option apiKey must look like sk_test_... or sk_live_... (or rk_test_... / rk_live_... for a restricted key).');
  // Undefined is what an unset environment variable gives: say what to set, not that undefined is no URL.
  if (baseUrl === undefined || baseUrl === '') {
    throw new TypeError(
      `PaymentQrClient option baseUrl is required: where the service runs, e.g. 'https://payment-qr.example.com' (the SDK adds ${API_PATH}).`,
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`PaymentQrClient option baseUrl must be an absolute http(s) URL, got '${baseUrl}'.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`PaymentQrClient option baseUrl must be http or https, got '${url.protocol}'.`);
  if (url.search !== '' || url.hash !== '') throw new TypeError('PaymentQrClient option baseUrl must not carry a query or fragment.');
  // The contract's server URL (.../Thai/v1) names the API base itself: what precedes it is the prefix.
  const origin = url
    .toString()
    .replace(/\/+$/, '')
    .replace(/\/Thai\/v1$/, '');
  // The other bases the service answers at are mistakes here: the SDK would add /Thai/v1 after them.
  if (/^https?:\/\/[^/]+\/v1$|\/Thai$/.test(origin)) {
    throw new TypeError(
      `PaymentQrClient option baseUrl is where the service runs, with a gateway's path prefix if any, e.g. 'https://api.example.com'; the SDK adds ${API_PATH} itself.`,
    );
  }
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 2_147_483_647) {
    throw new TypeError('PaymentQrClient option timeout must be a positive number of milliseconds.');
  }
  if (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new TypeError('PaymentQrClient option maxRetries must be an integer, 0 or more.');
  }
  const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  if (typeof fetch !== 'function') throw new TypeError('PaymentQrClient option fetch must be a function with the signature of the Fetch API.');
  return { apiKey, origin, timeout, maxRetries, fetch };
}

/**
 * The Payment QR API client.
 *
 * ```ts
 * const client = new PaymentQrClient({ apiKey: process.env.PAYMENT_QR_API_KEY!, baseUrl: process.env.PAYMENT_QR_BASE_URL! });
 * const qrCode = await client.qrCodes.create({ amount: 150000, currency: 'THB' });
 * ```
 */
export class PaymentQrClient {
  readonly qrCodes: QrCodes;
  readonly payments: Payments;
  readonly refunds: Refunds;
  readonly transactions: Transactions;
  readonly webhooks: Webhooks;
  readonly balance: Balance;
  readonly withdrawals: Withdrawals;
  /** Monthly statements, daily settlement files and tax invoices for the fees. */
  readonly reports: Reports;
  /** Every event of the last 30 days, as its webhook payload. */
  readonly events: Events;
  /** Points of sale: a customer display and a static QR each; pass `till_id` to `qrCodes.create` to take a payment there. */
  readonly tills: Tills;
  /** Customers' transfer slips checked with the bank. */
  readonly slipVerifications: SlipVerifications;
  /** Sandbox only (`sk_test_` keys): complete, fail or expire a pending payment as the customer's bank would. */
  readonly testHelpers: TestHelpers;

  constructor(options: PaymentQrClientOptions) {
    const resolved = resolveOptions(options);
    const sender = new RequestSender({
      apiBaseUrl: `${resolved.origin}${API_PATH}`,
      apiKey: resolved.apiKey,
      timeout: resolved.timeout,
      maxRetries: resolved.maxRetries,
      fetch: resolved.fetch,
    });
    this.qrCodes = new QrCodes(sender, resolved.origin);
    this.payments = new Payments(sender);
    this.refunds = new Refunds(sender);
    this.transactions = new Transactions(sender);
    this.webhooks = new Webhooks(sender);
    this.balance = new Balance(sender);
    this.withdrawals = new Withdrawals(sender);
    this.reports = new Reports(sender);
    this.events = new Events(sender);
    this.tills = new Tills(sender);
    this.slipVerifications = new SlipVerifications(sender);
    this.testHelpers = new TestHelpers(sender);
  }
}
