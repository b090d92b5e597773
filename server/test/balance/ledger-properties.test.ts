import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setFeeBps, setPayoutAccount } from '../../src/app/merchants.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';
import { balanceOf, closedAccount, finalStatus, ledgerOf, paid, payoutAccount } from './fixtures.js';

const { server } = usingTestServer();

type Step =
  | { kind: 'pay'; amount: number }
  | { kind: 'refund'; payment: number; amount: number }
  | { kind: 'withdraw'; amount: number }
  | { kind: 'fee'; bps: number }
  | { kind: 'account'; closed: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 100, max: 60_000 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), payment: fc.nat(), amount: fc.integer({ min: 1, max: 60_000 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 100, max: 80_000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('fee' as const), bps: fc.integer({ min: 0, max: 1_000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('account' as const), closed: fc.boolean() }), weight: 1 },
);

/** The rule, written independently of the service: round half up on exact integers. */
const halfUp = (numerator: bigint, denominator: bigint): number => Number((2n * numerator + denominator) / (2n * denominator));
const netOf = (amount: number, bps: number): number => {
  const fee = halfUp(BigInt(amount) * BigInt(bps), 10_000n);
  return amount - fee - halfUp(BigInt(fee) * 7n, 100n);
};

describe('ledger invariants (fast-check, over HTTP against the real database)', () => {
  it('available + pending = payments - fees - VAT - refunds - withdrawals not failed; never below zero; the CSV sums to the balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const merchant = await server.merchant({ payoutAccount });
        const api = apiClient(server.url, merchant);
        const s = server.running.runtime.services;
        const payments: { id: string; amount: number; refunded: number }[] = [];
        const withdrawals: { id: string; amount: number }[] = [];
        let net = 0; // succeeded payments less fees and VAT, less refunds, less withdrawals so far
        let bps = 0;

        for (const next of steps) {
          if (next.kind === 'pay') {
            payments.push({ id: await paid(api, next.amount), amount: next.amount, refunded: 0 });
            net += netOf(next.amount, bps);
          } else if (next.kind === 'refund' && payments.length > 0) {
            const payment = payments[next.payment % payments.length]!;
            // Failed withdrawals may give money back meanwhile: the balance only grows between this read and the request.
            const before = await balanceOf(api);
            const res = await api.post('/Thai/v1/refunds', { payment_id: payment.id, amount: next.amount });
            if (next.amount > payment.amount - payment.refunded) expect(res.status, res.text).toBe(422);
            else if (next.amount <= before.available + before.pending) expect(res.status, res.text).toBe(200);
            else expect([200, 402]).toContain(res.status);
            if (res.status === 200) {
              payment.refunded += next.amount;
              net -= next.amount;
            }
          } else if (next.kind === 'withdraw') {
            const before = await balanceOf(api);
            const res = await api.post('/Thai/v1/withdrawals', { amount: next.amount });
            if (next.amount <= before.available) expect(res.status, res.text).toBe(200);
            else expect([200, 402]).toContain(res.status);
            if (res.status === 200) {
              withdrawals.push({ id: res.body.withdrawal_id, amount: next.amount });
              net -= next.amount;
            }
          } else if (next.kind === 'fee') {
            bps = next.bps;
            await setFeeBps(s, merchant.id, bps);
          } else if (next.kind === 'account') {
            await setPayoutAccount(s, merchant.id, next.closed ? closedAccount : payoutAccount);
          }
          const now = await balanceOf(api);
          expect(now.available).toBeGreaterThanOrEqual(0);
          expect(now.pending).toBe(0); // no settlement delay here
        }

        // Let the sandbox rail finish; failed withdrawals come back, once.
        const settled = await Promise.all(withdrawals.map((w) => finalStatus(api, w.id)));
        const returned = settled.filter((w) => w.status === 'failed').reduce((sum, w) => sum + w.amount, 0);
        const { available, pending } = await balanceOf(api);
        expect(available + pending).toBe(net + returned);
        expect(available).toBeGreaterThanOrEqual(0);

        const entries = await ledgerOf(api);
        expect(entries.reduce((sum, e) => sum + e.net, 0)).toBe(available + pending);
        expect(entries.filter((e) => e.type === 'withdrawal_reversal')).toHaveLength(settled.filter((w) => w.status === 'failed').length);
        const csv = await api.get('/Thai/v1/balance/transactions?format=csv');
        const rows: Record<string, string>[] = parse(csv.text, { bom: true, columns: true });
        expect(rows.reduce((sum, row) => sum + Number(row.net), 0)).toBe(available + pending);
      }),
      { numRuns: 12 },
    );
  });
});
