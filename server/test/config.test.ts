import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/adapters/postgres/database.js';
import { migratedSnapshot } from './support/migrated-start.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      databaseUrl: null,
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: null,
      webhookAllowPrivateUrls: false,
      webhookRetryScheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      webhookTimeoutMs: 10_000,
      webhookLeaseMarginMs: 30_000,
      apiKeyUseFlushMs: 5_000,
      webhookDispatcher: true,
      rateLimitPerSecond: 100,
      checkoutStreamLifetimeMs: 900_000,
      authFailureLimitPerSecond: 20,
      requestBodyTimeoutMs: 10_000,
      metrics: { onApiPort: false, port: null },
      passwordHashCost: 15,
      sandboxPayoutIntervalMs: 500,
      embeddedSharedBuffers: '128MB',
    });
  });

  it('parses every setting', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/x',
      PORT: '8080',
      PUBLIC_BASE_URL: 'https://pay.example.com/',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0,500ms,2s',
      WEBHOOK_TIMEOUT_MS: '250',
      WEBHOOK_LEASE_MARGIN_MS: '2000',
      WEBHOOK_DISPATCHER: 'off',
      EXPIRY_SWEEP_INTERVAL_MS: '50',
      RATE_LIMIT_PER_SECOND: '0',
      AUTH_FAILURE_LIMIT_PER_SECOND: '0',
      REQUEST_BODY_TIMEOUT_MS: '2500',
      METRICS: 'on',
      METRICS_PORT: '9464',
      CHECKOUT_STREAM_LIFETIME: '5m',
      PASSWORD_HASH_COST: '12',
      SANDBOX_PAYOUT_INTERVAL_MS: '40',
      EMBEDDED_SHARED_BUFFERS: '1GB',
      API_KEY_USE_FLUSH_MS: '250',
    });
    expect(config).toMatchObject({
      rateLimitPerSecond: 0,
      authFailureLimitPerSecond: 0,
      requestBodyTimeoutMs: 2500,
      metrics: { onApiPort: true, port: 9464 },
      checkoutStreamLifetimeMs: 300_000,
      passwordHashCost: 12,
      sandboxPayoutIntervalMs: 40,
      embeddedSharedBuffers: '1GB',
      apiKeyUseFlushMs: 250,
    });
    expect(config).toMatchObject({
      port: 8080,
      publicBaseUrl: 'https://pay.example.com',
      webhookRetryScheduleMs: [0, 500, 2000],
      webhookDispatcher: false,
      webhookTimeoutMs: 250,
      webhookLeaseMarginMs: 2_000,
    });
  });

  it.each([
    ['PORT', 'eighty', /PORT: 'eighty' must be an integer/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: .* must be a postgres: or postgresql: URL/],
    ['PUBLIC_BASE_URL', 'not a url', /PUBLIC_BASE_URL/],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'yes', /must be 'true' or 'false'/],
    ['WEBHOOK_RETRY_SCHEDULE', '0,5x', /WEBHOOK_RETRY_SCHEDULE: '5x' is not a duration/],
    ['WEBHOOK_TIMEOUT_MS', '0', /WEBHOOK_TIMEOUT_MS/],
    ['WEBHOOK_LEASE_MARGIN_MS', '999', /WEBHOOK_LEASE_MARGIN_MS/],
    ['API_KEY_USE_FLUSH_MS', '99', /API_KEY_USE_FLUSH_MS/],
    ['WEBHOOK_DISPATCHER', 'true', /must be 'on' or 'off'/],
    ['EXPIRY_SWEEP_INTERVAL_MS', '-1', /EXPIRY_SWEEP_INTERVAL_MS/],
    ['RATE_LIMIT_PER_SECOND', '-5', /RATE_LIMIT_PER_SECOND: '-5' must be an integer from 0/],
    ['RATE_LIMIT_PER_SECOND', '2.5', /RATE_LIMIT_PER_SECOND/],
    ['AUTH_FAILURE_LIMIT_PER_SECOND', '-1', /AUTH_FAILURE_LIMIT_PER_SECOND: '-1' must be an integer from 0/],
    ['REQUEST_BODY_TIMEOUT_MS', '0', /REQUEST_BODY_TIMEOUT_MS: '0' must be an integer from 1/],
    ['METRICS', 'true', /METRICS: 'true' must be 'on' or 'off'/],
    ['METRICS_PORT', 'http', /METRICS_PORT: 'http' must be an integer/],
    ['PASSWORD_HASH_COST', '9', /PASSWORD_HASH_COST: '9' must be an integer from 10/],
    ['PASSWORD_HASH_COST', '21', /PASSWORD_HASH_COST/],
    ['EMBEDDED_SHARED_BUFFERS', '16', /EMBEDDED_SHARED_BUFFERS: '16' must be a size/],
    ['EMBEDDED_SHARED_BUFFERS', '64kB', /EMBEDDED_SHARED_BUFFERS: '64kB' must be a size from 128kB/],
    ['EMBEDDED_SHARED_BUFFERS', '16mb', /EMBEDDED_SHARED_BUFFERS/],
    ['EMBEDDED_SHARED_BUFFERS', '2GB', /EMBEDDED_SHARED_BUFFERS: '2GB' must be a size from 128kB to 1GB/],
    ['SANDBOX_PAYOUT_INTERVAL_MS', '5', /SANDBOX_PAYOUT_INTERVAL_MS: '5' must be an integer from 10/],
    ['CHECKOUT_STREAM_LIFETIME', '0', /CHECKOUT_STREAM_LIFETIME: must be longer than 0/],
    ['CHECKOUT_STREAM_LIFETIME', 'forever', /CHECKOUT_STREAM_LIFETIME: 'forever' is not a duration/],
    ['DATABASE_URL', 'postgres://u@h1:5432,,h3/db', /DATABASE_URL: host 2 of 3 \(''\) is empty/],
    ['DATABASE_URL', 'postgres://u@h1:5432,h2:99999/db', /DATABASE_URL: host 2 of 2 \('h2:99999'\) is not a host or host:port/],
    ['DATABASE_URL', 'postgres://u@h1:5432,h2:x/db', /DATABASE_URL: host 2 of 2 \('h2:x'\)/],
    ['DATABASE_URL', 'postgres://u@h1,:5433/db', /DATABASE_URL: host 2 of 2 \(':5433'\)/],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it("takes several hosts in libpq's form, as written, and never echoes a password when one is wrong", () => {
    const url = 'postgresql://app:s%40cret@10.0.0.1:5432,[::1]:5433,db-3/payments?sslmode=disable&target_session_attrs=read-write';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app:topsecret@h1,h2:0/db' })).toThrow(/host 2 of 2/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app:topsecret@h1,h2:0/db' })).not.toThrow(/topsecret/);
  });

  it.each([
    ['DATABASE_URL', 'mysql://root:s3cretpw@127.0.0.1:3306/payments', "DATABASE_URL: 'mysql://root:***@127.0.0.1:3306/payments' must be"],
    ['DATABASE_URL', 'postgres//root:s3cretpw@db/payments', 'DATABASE_URL:'],
    ['DATABASE_URL', 'mysql://db/payments?user=root&password=s3cretpw', "'mysql://db/payments?user=root&password=***'"],
    ['DATABASE_URL', 'mysql://root:s3cret:pw@db/payments?sslkey=s3cretpw', "'mysql://root:***@db/payments?sslkey=***'"],
    ['PUBLIC_BASE_URL', 'ftp://admin:s3cretpw@pay.example.com', "PUBLIC_BASE_URL: 'ftp://admin:***@pay.example.com' must be"],
    ['SCB_API_BASE_URL', 'ftp://client:s3cretpw@api.example.com', 'SCB_API_BASE_URL:'],
  ])("a wrong %s is named, its password never printed ('%s')", (name, value, named) => {
    const bank = name === 'SCB_API_BASE_URL' ? scbSettings() : {};
    let message = '';
    try {
      loadConfig({ ...bank, [name]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(named);
    expect(message).not.toContain('s3cret');
    expect(message).not.toContain('pw');
  });
});

const scbSettings = () => ({
  BANK: 'scb',
  SCB_API_KEY: 'key',
  SCB_API_SECRET: 'secret',
  SCB_BILLER_ID: '123456789012345',
  SCB_CALLBACK_TOKEN: 'x'.repeat(32),
});

describe('EMBEDDED_SHARED_BUFFERS', () => {
  it('is the embedded database’s shared_buffers, whichever database the suite runs on', async () => {
    const db = await openDatabase({
      kind: 'embedded',
      dataDir: null,
      snapshot: migratedSnapshot(),
      sharedBuffers: loadConfig({ EMBEDDED_SHARED_BUFFERS: '2MB' }).embeddedSharedBuffers,
    });
    try {
      expect((await db.knex.raw('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '2MB' }]);
    } finally {
      await db.close();
    }
  });
});
