import { describe, expect, it } from 'vitest';
import { retryDelayMs, settleAttempt } from '../../src/domain/delivery-schedule.js';

const schedule = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const now = new Date('2026-11-20T08:00:00.000Z');

describe('retryDelayMs', () => {
  it('waits schedule[n - 1] after the n-th failed attempt, and gives up after the schedule runs out', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, schedule))).toEqual(schedule);
    expect(retryDelayMs(9, schedule)).toBeNull();
    expect(retryDelayMs(1, [])).toBeNull();
  });
});

describe('settleAttempt', () => {
  it.each([200, 201, 204, 299])('a %i is delivered', (status) => {
    expect(settleAttempt({ kind: 'answered', status }, 1, schedule, now)).toEqual({
      status: 'delivered',
      lastResponseStatus: status,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: now,
      disableWebhook: false,
    });
  });

  it.each([
    [{ kind: 'answered', status: 500 } as const, 500, /500/],
    [{ kind: 'answered', status: 301 } as const, 301, /redirects are not followed/],
    [{ kind: 'answered', status: 404 } as const, 404, /404/],
    [{ kind: 'no_answer', error: 'TIMEOUT' } as const, null, /TIMEOUT/],
    [{ kind: 'refused_url', error: 'not public' } as const, null, /not public/],
  ])('%j is retried on the schedule', (outcome, lastResponseStatus, error) => {
    const result = settleAttempt(outcome, 2, schedule, now);
    expect(result).toMatchObject({ status: 'pending', lastResponseStatus, deliveredAt: null, disableWebhook: false });
    expect(result.nextAttemptAt).toEqual(new Date(now.getTime() + 5_000));
    expect(result.lastError).toMatch(error);
  });

  it('fails the delivery after the last attempt', () => {
    expect(settleAttempt({ kind: 'answered', status: 503 }, 9, schedule, now)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      lastResponseStatus: 503,
    });
    expect(settleAttempt({ kind: 'no_answer', error: 'ECONNREFUSED' }, 3, [0, 200], now)).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it('fails the delivery and disables the webhook on 410 Gone, whatever attempts remain', () => {
    expect(settleAttempt({ kind: 'answered', status: 410 }, 1, schedule, now)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      lastResponseStatus: 410,
      disableWebhook: true,
    });
  });
});
