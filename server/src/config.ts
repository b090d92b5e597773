import { parseTrustedProxies, type TrustedProxies } from './adapters/pages/client-address.js';
import { databaseHosts, DatabaseUrlError } from './adapters/postgres/hosts.js';
import { EMBEDDED_SHARED_BUFFERS } from './adapters/postgres/database.js';
import { maskedUrl } from './adapters/system/masked-url.js';
import { HEAD_OFFICE, isValidBranch, isValidTaxId, type TaxParty } from './domain/tax-invoice.js';

/** Every setting, read from the environment once, typed, and refused with a clear message when wrong. */
export interface Config {
  databaseUrl: string | null;
  dataDir: string;
  port: number;
  host: string;
  /** Origin used in qr_image_url; null: the address the server actually listens on. */
  publicBaseUrl: string | null;
  webhookAllowPrivateUrls: boolean;
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  webhookLeaseMarginMs: number;
  apiKeyUseFlushMs: number;
  webhookDispatcher: boolean;
  /** HOT_ROUTES=off: the two hottest operations go through Express like the rest (README, "Performance"). */
  hotRoutes: boolean;
  expirySweepIntervalMs: number;
  /** EMBEDDED_SHARED_BUFFERS: PostgreSQL's shared_buffers for the embedded database (128MB, PGlite's; kB, MB or GB). */
  embeddedSharedBuffers: string;
  /** SANDBOX_PAYOUT_INTERVAL_MS: how often the sandbox payout rail moves test withdrawals on (each takes two of its steps). */
  sandboxPayoutIntervalMs: number;
  logLevel: string;
  /** How long a succeeded payment's money stays pending before it can be withdrawn. */
  settlementDelayMs: number;
  bank: BankConfig;
  /** Requests per second (and burst) for each merchant, and for each client address on public pages; 0: no limit. */
  rateLimitPerSecond: number;
  /** A checkout page's status stream ends after this long (CHECKOUT_STREAM_LIFETIME, default 15m); the page reconnects. */
  checkoutStreamLifetimeMs: number;
  /** Failed authentications per second (and burst) for each client address on the API; beyond: 429. 0: no limit. */
  authFailureLimitPerSecond: number;
  /** How long a request body may take to arrive once the service starts reading it; then 408 and the connection closes. */
  requestBodyTimeoutMs: number;
  /** Serve GET /metrics on the API port (METRICS=on), and/or on a port of its own (METRICS_PORT). */
  metrics: { onApiPort: boolean; port: number | null };
  /** PASSWORD_HASH_COST: scrypt's N as a power of two for new dashboard passwords (15, about 50 ms a hash); lower only for test suites. */
  passwordHashCost: number;
  /** WEB_CONCURRENCY: how many server processes `npm start` runs on the one port (node:cluster); 1: this process serves. */
  webConcurrency: number;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For names the client (addresses, CIDR ranges); none by default. */
  trustProxy: TrustedProxies;
  /** The operator as the seller on tax invoices (OPERATOR_NAME, OPERATOR_ADDRESS, OPERATOR_TAX_ID, OPERATOR_BRANCH); null: none set, none issued. */
  operator: TaxParty | null;
}

/** BANK=sandbox (default): live keys cannot take QR payments. BANK=scb: the SCB connection, all of it required. */
export type BankConfig =
  | { kind: 'sandbox' }
  | { kind: 'scb'; apiBaseUrl: string; apiKey: string; apiSecret: string; billerId: string; callbackToken: string; reconcileIntervalMs: number };

export class ConfigError extends Error {}

const DEFAULT_RETRY_SCHEDULE = '0,5s,5m,30m,2h,5h,10h,10h';
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string, name: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new ConfigError(`${name}: '${text}' is not a duration (use e.g. 0, 500ms, 5s, 5m, 2h).`);
  return Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!;
}

function positiveDuration(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const ms = parseDuration(env[name] || fallback, name);
  if (ms <= 0) throw new ConfigError(`${name}: must be longer than 0.`);
  return ms;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name}: '${raw}' must be an integer from ${min} to ${max}.`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean, [on, off]: [string, string] = ['true', 'false']): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === on) return true;
  if (raw === off) return false;
  throw new ConfigError(`${name}: '${raw}' must be '${on}' or '${off}'.`);
}

function url(raw: string, name: string, protocols: string[]): string {
  try {
    const parsed = new URL(raw);
    if (protocols.includes(parsed.protocol)) return raw;
  } catch {
    // reported below
  }
  // A URL may carry a password (DATABASE_URL's, most often): the message shows it as ***.
  throw new ConfigError(`${name}: '${maskedUrl(raw)}' must be a ${protocols.join(' or ')} URL.`);
}

function required(env: NodeJS.ProcessEnv, name: string, rule: RegExp, what: string): string {
  const raw = env[name];
  if (!raw) throw new ConfigError(`${name} is required with BANK=scb (${what}).`);
  // The value itself stays out of the message: it may be a secret.
  if (!rule.test(raw)) throw new ConfigError(`${name} must be ${what}.`);
  return raw;
}

function bankConfig(env: NodeJS.ProcessEnv): BankConfig {
  const kind = env.BANK || 'sandbox';
  if (kind === 'sandbox') return { kind };
  if (kind !== 'scb') throw new ConfigError(`BANK: '${kind}' must be 'sandbox' or 'scb'.`);
  return {
    kind,
    apiBaseUrl: url(required(env, 'SCB_API_BASE_URL', /./, 'the http(s) base URL of the SCB API'), 'SCB_API_BASE_URL', ['http:', 'https:']).replace(/\/+$/, ''),
    apiKey: required(env, 'SCB_API_KEY', /^\S+$/, 'the API key of the SCB application'),
    apiSecret: required(env, 'SCB_API_SECRET', /^\S+$/, 'the API secret of the SCB application'),
    billerId: required(env, 'SCB_BILLER_ID', /^\d{15}$/, 'the 15-digit biller id'),
    callbackToken: required(env, 'SCB_CALLBACK_TOKEN', /^[A-Za-z0-9_-]{32,}$/, 'at least 32 characters of A-Z, a-z, 0-9, _ and -'),
    reconcileIntervalMs: integer(env, 'BANK_RECONCILE_INTERVAL_MS', 60_000, 100, 86_400_000),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const schedule = (env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE).split(',').map((part) => parseDuration(part, 'WEBHOOK_RETRY_SCHEDULE'));
  return {
    databaseUrl: env.DATABASE_URL ? databaseUrl(env.DATABASE_URL) : null,
    dataDir: env.DATA_DIR || '.data/pglite',
    port,
    host,
    publicBaseUrl: env.PUBLIC_BASE_URL ? url(env.PUBLIC_BASE_URL, 'PUBLIC_BASE_URL', ['http:', 'https:']).replace(/\/+$/, '') : null,
    webhookAllowPrivateUrls: flag(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    webhookRetryScheduleMs: schedule,
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    webhookLeaseMarginMs: integer(env, 'WEBHOOK_LEASE_MARGIN_MS', 30_000, 1_000, 600_000),
    apiKeyUseFlushMs: integer(env, 'API_KEY_USE_FLUSH_MS', 5_000, 100, 3_600_000),
    webhookDispatcher: flag(env, 'WEBHOOK_DISPATCHER', true, ['on', 'off']),
    hotRoutes: flag(env, 'HOT_ROUTES', true, ['on', 'off']),
    expirySweepIntervalMs: integer(env, 'EXPIRY_SWEEP_INTERVAL_MS', 1_000, 10, 3_600_000),
    embeddedSharedBuffers: memorySize(env, 'EMBEDDED_SHARED_BUFFERS', EMBEDDED_SHARED_BUFFERS),
    sandboxPayoutIntervalMs: integer(env, 'SANDBOX_PAYOUT_INTERVAL_MS', 500, 10, 60_000),
    logLevel: env.LOG_LEVEL || 'info',
    settlementDelayMs: parseDuration(env.SETTLEMENT_DELAY || '0', 'SETTLEMENT_DELAY'),
    bank: bankConfig(env),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 100, 0, 1_000_000),
    checkoutStreamLifetimeMs: positiveDuration(env, 'CHECKOUT_STREAM_LIFETIME', '15m'),
    authFailureLimitPerSecond: integer(env, 'AUTH_FAILURE_LIMIT_PER_SECOND', 20, 0, 1_000_000),
    requestBodyTimeoutMs: integer(env, 'REQUEST_BODY_TIMEOUT_MS', 10_000, 1, 600_000),
    metrics: { onApiPort: flag(env, 'METRICS', false, ['on', 'off']), port: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : null },
    webConcurrency: webConcurrency(env),
    passwordHashCost: integer(env, 'PASSWORD_HASH_COST', 15, 10, 20),
    operator: operatorOf(env),
    trustProxy: trustedProxies(env.TRUST_PROXY ?? ''),
  };
}

/**
 * A size as PostgreSQL writes one in its settings: a whole number of kB, MB or GB, from 128kB (16 pages) to 1GB (the
 * embedded database lives in one WebAssembly memory, at most a few GB in all).
 */
function memorySize(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const text = env[name] || fallback;
  const match = /^(\d+)(kB|MB|GB)$/.exec(text);
  const kB = match ? Number(match[1]) * { kB: 1, MB: 1024, GB: 1024 * 1024 }[match[2] as 'kB' | 'MB' | 'GB'] : NaN;
  if (!(kB >= 128 && kB <= 1024 * 1024)) throw new ConfigError(`${name}: '${text}' must be a size from 128kB to 1GB, written like 16MB (kB, MB or GB).`);
  return text;
}

function trustedProxies(text: string): TrustedProxies {
  try {
    return parseTrustedProxies(text);
  } catch (error) {
    throw new ConfigError(`TRUST_PROXY: ${(error as Error).message}`);
  }
}

/** One host, as ever; several in libpq's form (`postgres://u@h1:5432,h2:5433/db`): each must be a host or host:port. */
function databaseUrl(raw: string): string {
  try {
    if (databaseHosts(raw).length > 1) return raw;
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new ConfigError(`DATABASE_URL: ${error.message}.`);
    throw error;
  }
  return url(raw, 'DATABASE_URL', ['postgres:', 'postgresql:']);
}

/** Several processes share one database only on PostgreSQL: the embedded one belongs to a single process. */
function webConcurrency(env: NodeJS.ProcessEnv): number {
  const processes = integer(env, 'WEB_CONCURRENCY', 1, 1, 256);
  if (processes > 1 && !env.DATABASE_URL) {
    throw new ConfigError(`WEB_CONCURRENCY=${processes} needs DATABASE_URL (PostgreSQL): the embedded database serves one process.`);
  }
  return processes;
}

/** The seller on tax invoices: all of name, address and tax id, or none (then no tax invoice is issued). */
function operatorOf(env: NodeJS.ProcessEnv): TaxParty | null {
  const name = env.OPERATOR_NAME?.trim() ?? '';
  const address = env.OPERATOR_ADDRESS?.trim() ?? '';
  const taxId = env.OPERATOR_TAX_ID?.trim() ?? '';
  const branch = env.OPERATOR_BRANCH?.trim() || HEAD_OFFICE;
  if (!name && !address && !taxId) return null;
  const missing = Object.entries({ OPERATOR_NAME: name, OPERATOR_ADDRESS: address, OPERATOR_TAX_ID: taxId }).filter(([, value]) => !value);
  if (missing.length > 0)
    throw new ConfigError(`${missing.map(([key]) => key).join(' and ')} must be set too: tax invoices name the operator's name, address and tax id.`);
  if (!isValidTaxId(taxId)) throw new ConfigError(`OPERATOR_TAX_ID: '${taxId}' must be a Thai tax id: 13 digits, the last a valid check digit.`);
  if (!isValidBranch(branch)) throw new ConfigError(`OPERATOR_BRANCH: '${branch}' must be 5 digits (00000: head office).`);
  return { name, address, taxId, branch };
}
