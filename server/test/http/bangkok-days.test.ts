import { beforeAll, describe, expect, it } from 'vitest';
import { payoutAccount } from '../balance/fixtures.js';
import { expectEnvelope } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

// 17:30 UTC on the 24th is 00:30 on the 25th in Bangkok (+07:00, no daylight saving).
const clock = manualClock(new Date('2026-11-24T17:30:00.000Z'));

const { api } = usingTestServer({ clock, merchant: { payoutAccount } });
beforeAll(async () => {
  const qr = await api.post('/Thai/v1/qr-codes', { amount: 10_000, currency: 'THB' });
  expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
  expect((await api.post('/Thai/v1/withdrawals', { amount: 5000 })).status).toBe(200);
});

const lists = ['payments', 'transactions', 'balance/transactions', 'withdrawals', 'events'];
const totalOf = async (list: string, query: string): Promise<number> => {
  const res = await api.get(`/Thai/v1/${list}?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.total as number;
};

describe('start_date / end_date as dates: calendar days in Asia/Bangkok', () => {
  it.each(lists)('%s: a payment made at 00:30 Bangkok time on the 25th is in the 25th, not in the 24th', async (list) => {
    expect(await totalOf(list, 'start_date=2026-11-25')).toBeGreaterThan(0);
    expect(await totalOf(list, 'end_date=2026-11-25')).toBeGreaterThan(0);
    expect(await totalOf(list, 'start_date=2026-11-25&end_date=2026-11-25')).toBeGreaterThan(0);
    expect(await totalOf(list, 'end_date=2026-11-24')).toBe(0);
    expect(await totalOf(list, 'start_date=2026-11-26')).toBe(0);
  });

  it('date-times are taken as given, with their offset', async () => {
    expect(await totalOf('payments', 'start_date=2026-11-25T00:30:00%2B07:00')).toBe(1);
    expect(await totalOf('payments', 'start_date=2026-11-25T00:30:00.001%2B07:00')).toBe(0);
    expect(await totalOf('payments', 'end_date=2026-11-24T17:30:00Z')).toBe(1);
    expect(await totalOf('payments', 'end_date=2026-11-24T17:29:59.999Z')).toBe(0);
  });

  it.each(['start_date', 'end_date'])('a %s date-time without an offset or Z is 400 invalid_parameters naming the parameter', async (param) => {
    for (const list of lists) {
      const res = await api.get(`/Thai/v1/${list}?${param}=2026-11-25T00:30:00`);
      expectEnvelope(res, 400, 'invalid_parameters');
      expect(res.body.error.param).toBe(param);
    }
  });

  it('a date that is no calendar day is 400 too', async () => {
    for (const query of ['start_date=2026-02-30', 'end_date=2026-13-01', 'start_date=2026-11-25T24:00:00Z']) {
      expectEnvelope(await api.get(`/Thai/v1/payments?${query}`), 400, 'invalid_parameters');
    }
  });
});
