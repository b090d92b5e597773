import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, retryAfterMs, retryDelayMs, shouldRetry, type AttemptOutcome } from '../src/retry.js';

const response = (status: number, code?: string, retryAfter?: string): AttemptOutcome => ({ kind: 'response', status, code, retryAfter });

describe('shouldRetry', () => {
  it.each<[string, AttemptOutcome, boolean]>([
    ['connection failure', { kind: 'connection_failed' }, true],
    ['time-out', { kind: 'timeout' }, true],
    ['409 idempotency_key_in_use', response(409, 'idempotency_key_in_use'), true],
    ['409 idempotency_key_reused', response(409, 'idempotency_key_reused'), false],
    ['429 without Retry-After', response(429), true],
    ['429 with Retry-After 30', response(429, undefined, '30'), true],
    ['429 with Retry-After 61', response(429, undefined, '61'), false],
    ['408 request_timeout', response(408, 'request_timeout'), true],
    ['405', response(405, 'method_not_allowed'), false],
    ['500', response(500, 'internal_error'), true],
    ['502 from a proxy', response(502), true],
    ['503', response(503, 'service_unavailable'), true],
    ['400', response(400, 'invalid_request'), false],
    ['401', response(401, 'authentication_failed'), false],
    ['402', response(402, 'card_declined'), false],
    ['404', response(404, 'payment_not_found'), false],
    ['422', response(422, 'invalid_amount'), false],
    ['200 that was not JSON', response(200), false],
  ])('%s: %s', (_name, outcome, expected) => {
    expect(shouldRetry(outcome, 0, 2)).toBe(expected);
  });

  it('never retries beyond maxRetries', () => {
    expect(shouldRetry({ kind: 'connection_failed' }, 1, 2)).toBe(true);
    expect(shouldRetry({ kind: 'connection_failed' }, 2, 2)).toBe(false);
    expect(shouldRetry({ kind: 'timeout' }, 0, 0)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('doubles from 0.5 s up to 8 s, with jitter between half and all of it', () => {
    const lowest = [0, 1, 2, 3, 4, 5, 8].map((n) => retryDelayMs({ kind: 'timeout' }, n, () => 0));
    const highest = [0, 1, 2, 3, 4, 5, 8].map((n) => retryDelayMs({ kind: 'timeout' }, n, () => 0.999999));
    expect(lowest).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(highest).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(Math.max(...highest)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('waits at least what Retry-After asks', () => {
    expect(retryDelayMs(response(429, undefined, '3'), 0, () => 0)).toBe(3_000);
    expect(retryDelayMs(response(429, undefined, '0'), 0, () => 0)).toBe(250);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-20T08:00:00Z');
    expect(retryAfterMs('12', now)).toBe(12_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 08:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 07:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
