import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const scb = {
  BANK: 'scb',
  SCB_API_BASE_URL: 'https://api-sandbox.partners.scb/partners/sandbox/',
  SCB_API_KEY: 'l7xx0123456789abcdef',
  SCB_API_SECRET: 'secret-0123456789',
  SCB_BILLER_ID: '010753600031508',
  SCB_CALLBACK_TOKEN: 'c'.repeat(32),
};

describe('bank settings', () => {
  it('default to the sandbox bank', () => {
    expect(loadConfig({}).bank).toEqual({ kind: 'sandbox' });
  });

  it('parse the SCB connection, with reconciliation every minute by default', () => {
    expect(loadConfig(scb).bank).toEqual({
      kind: 'scb',
      apiBaseUrl: 'https://api-sandbox.partners.scb/partners/sandbox',
      apiKey: scb.SCB_API_KEY,
      apiSecret: scb.SCB_API_SECRET,
      billerId: scb.SCB_BILLER_ID,
      callbackToken: scb.SCB_CALLBACK_TOKEN,
      reconcileIntervalMs: 60_000,
    });
    expect(loadConfig({ ...scb, BANK_RECONCILE_INTERVAL_MS: '5000' }).bank).toMatchObject({ reconcileIntervalMs: 5000 });
  });

  const refused: [string, Record<string, string | undefined>, RegExp][] = [
    ['an unknown bank', { BANK: 'kbank' }, /BANK: 'kbank' must be 'sandbox' or 'scb'/],
    ['a missing API base URL', { SCB_API_BASE_URL: undefined }, /SCB_API_BASE_URL is required with BANK=scb/],
    ['an API base URL that is not http(s)', { SCB_API_BASE_URL: 'ftp://bank' }, /SCB_API_BASE_URL/],
    ['a missing API key', { SCB_API_KEY: '' }, /SCB_API_KEY is required/],
    ['a missing API secret', { SCB_API_SECRET: undefined }, /SCB_API_SECRET is required/],
    ['a biller id that is not 15 digits', { SCB_BILLER_ID: '12345' }, /SCB_BILLER_ID must be the 15-digit biller id/],
    ['a short callback token', { SCB_CALLBACK_TOKEN: 'short' }, /SCB_CALLBACK_TOKEN must be at least 32 characters/],
    ['a bad reconciliation interval', { BANK_RECONCILE_INTERVAL_MS: 'often' }, /BANK_RECONCILE_INTERVAL_MS/],
  ];
  it.each(refused)('refuse %s with a clear message that never repeats a secret', (_name, change, message) => {
    const env = { ...scb, ...change };
    expect(() => loadConfig(env)).toThrow(message);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain(scb.SCB_API_SECRET);
      expect((error as Error).message).not.toContain('short');
    }
  });
});
