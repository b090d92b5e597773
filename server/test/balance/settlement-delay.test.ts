import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleMaturedCredits } from '../../src/app/ledger.js';
import { runPayoutCommand } from '../../src/cli/payouts.js';
import { apiClient, expectEnvelope } from '../support/http.js';
import { startLiveBank, type LiveBank } from '../support/bank.js';
import { manualClock, type TestServer } from '../support/test-server.js';
import { balanceFromRecordedDraws, balanceOf, paid, paidAtBankNow, payoutAccount } from './fixtures.js';

const DELAY_MS = 40_000;
const clock = manualClock();
// A deployment with a bank connection (the SCB simulator), so that live merchants and live refunds exist too.
let live: LiveBank;
let server: TestServer;
beforeAll(async () => {
  live = await startLiveBank({ clock, env: { SETTLEMENT_DELAY: '40s' } });
  server = live.server;
});
afterAll(() => live?.stop());

const merchantApi = async (feeBps = 0) => apiClient(server.url, await server.merchant({ payoutAccount, feeBps }));

describe('no money becomes available before its own payment has waited out SETTLEMENT_DELAY', () => {
  it('a refund of one payment does not let a later payment mature on the refunded one’s time', async () => {
    const api = await merchantApi();
    const first = await paid(api, 10_000);
    expect((await api.post('/Thai/v1/refunds', { payment_id: first })).status).toBe(200);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
    clock.advance(20_000);
    await paid(api, 10_000);

    clock.advance(22_000); // the first payment's delay is over, the second's is not
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 10_000 });
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 10_000 }), 402, 'insufficient_funds');
    clock.advance(DELAY_MS - 22_000 - 1);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 10_000 });
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 100 }), 402, 'insufficient_funds');
    clock.advance(1);
    expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 0 });
    expect((await api.post('/Thai/v1/withdrawals', { amount: 10_000 })).status).toBe(200);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
  });

  it('repeated pay-and-refund cycles never shorten the delay', async () => {
    const api = await merchantApi();
    for (let cycle = 0; cycle < 5; cycle++) {
      const payment = await paid(api, 5000);
      expect((await api.post('/Thai/v1/refunds', { payment_id: payment })).status).toBe(200);
      clock.advance(DELAY_MS / 4);
    }
    await paid(api, 5000);
    clock.advance(DELAY_MS - 1);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 5000 });
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 100 }), 402, 'insufficient_funds');
    clock.advance(1);
    expect(await balanceOf(api)).toEqual({ available: 5000, pending: 0 });
  });

  it('a refund of a pending payment takes from that payment’s own credit, even when money is available', async () => {
    const api = await merchantApi();
    await paid(api, 10_000);
    clock.advance(DELAY_MS);
    const second = await paid(api, 8000);
    expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 8000 });
    expect((await api.post('/Thai/v1/refunds', { payment_id: second, amount: 3000 })).status).toBe(200);
    expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 5000 });
    clock.advance(DELAY_MS);
    expect(await balanceOf(api)).toEqual({ available: 15_000, pending: 0 });
  });

  it('beyond its own credit (the fee is not returned) a refund takes from available, then the latest-maturing pending credits', async () => {
    const api = await merchantApi(300); // 3 %: 10 000 nets 9679
    const own = await paid(api, 10_000);
    clock.advance(DELAY_MS);
    expect(await balanceOf(api)).toEqual({ available: 9679, pending: 0 });
    expect((await api.post('/Thai/v1/withdrawals', { amount: 9000 })).status).toBe(200);
    await paid(api, 10_000); // matures first
    clock.advance(10_000);
    await paid(api, 10_000); // matures last
    expect(await balanceOf(api)).toEqual({ available: 679, pending: 19_358 });

    // The own credit is available already: 679 from available, the other 9321 from the latest-maturing credit.
    expect((await api.post('/Thai/v1/refunds', { payment_id: own })).status).toBe(200);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 10_037 });
    clock.advance(DELAY_MS - 10_000);
    expect(await balanceOf(api)).toEqual({ available: 9679, pending: 358 });
    clock.advance(10_000);
    expect(await balanceOf(api)).toEqual({ available: 10_037, pending: 0 });
  });

  it('a failed live refund gives back to its payment’s credit while that is pending, so the money still waits out its delay', async () => {
    const merchant = await server.merchant({ mode: 'live', payoutAccount });
    const api = apiClient(server.url, merchant);
    const pendingOne = await paidAtBankNow(server.running.runtime.services, api, 12_000);
    const refund = await api.post('/Thai/v1/refunds', { payment_id: pendingOne });
    expect(refund.body.status, refund.text).toBe('pending');
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
    clock.advance(10_000);
    await operator('withdrawals', 'mark', refund.body.refund_id, '--failed', 'account_closed');
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 12_000 });
    clock.advance(DELAY_MS - 10_000 - 1);
    expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 100 }), 402, 'insufficient_funds');
    clock.advance(1);
    expect(await balanceOf(api)).toEqual({ available: 12_000, pending: 0 });

    // Once the credit has matured, what a failed refund took comes back to `available`, where it would have been.
    const matured = await paidAtBankNow(server.running.runtime.services, api, 5000);
    const late = await api.post('/Thai/v1/refunds', { payment_id: matured });
    expect(await balanceOf(api)).toEqual({ available: 12_000, pending: 0 });
    clock.advance(DELAY_MS);
    await operator('withdrawals', 'mark', late.body.refund_id, '--failed', 'account_closed');
    expect(await balanceOf(api)).toEqual({ available: 17_000, pending: 0 });
  });
  it('refunds, payments, withdrawals and the settling worker at once keep every draw and total consistent (PostgreSQL: many connections)', async () => {
    const merchant = await server.merchant({ payoutAccount });
    const api = apiClient(server.url, merchant);
    const early = await Promise.all(Array.from({ length: 6 }, () => paid(api, 10_000)));
    clock.advance(DELAY_MS / 2);
    const later = await Promise.all(Array.from({ length: 6 }, () => paid(api, 10_000)));
    clock.advance(DELAY_MS / 2); // the early credits have matured (none settled yet), the later ones have not
    const [refunds, withdrawals] = await Promise.all([
      Promise.all([
        ...later.map((id) => api.post('/Thai/v1/refunds', { payment_id: id, amount: 4000 })),
        ...early.slice(0, 3).map((id) => api.post('/Thai/v1/refunds', { payment_id: id })),
      ]),
      Promise.all(Array.from({ length: 4 }, () => api.post('/Thai/v1/withdrawals', { amount: 5000 }))),
      Promise.all(Array.from({ length: 3 }, () => paid(api, 2000))),
      Promise.all(Array.from({ length: 3 }, () => settleMaturedCredits(server.running.runtime.services))),
    ]);
    // Everything fits whatever the order: the refunds of later payments draw on their own credits only.
    expect([...refunds, ...withdrawals].map((r) => r.status)).toEqual(Array(13).fill(200));
    const recorded = await balanceFromRecordedDraws(server.running.runtime.db.knex, merchant.id, clock.now().getTime());
    expect(recorded).toEqual({ available: 6 * 10_000 - 3 * 10_000 - 4 * 5000, pending: 6 * 6000 + 3 * 2000, sum: recorded.available + recorded.pending });
    expect(await balanceOf(api)).toEqual({ available: recorded.available, pending: recorded.pending });
    clock.advance(DELAY_MS);
    expect(await balanceOf(api)).toEqual({ available: recorded.available + recorded.pending, pending: 0 });
  });
});

const operator = (...args: string[]) => runPayoutCommand(server.running.runtime.services, args);
