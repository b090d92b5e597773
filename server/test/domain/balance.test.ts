import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feesOn, mature, roundHalfUp, takeForRefund, takeForWithdrawal, type BalanceTotals } from '../../src/domain/balance.js';
import { DomainError } from '../../src/domain/errors.js';
import { canMove, withdrawalStatuses } from '../../src/domain/withdrawal.js';

describe('fees and VAT', () => {
  it('round half up exactly, and the net is what is left', () => {
    expect(roundHalfUp(5, 2)).toBe(3);
    expect(roundHalfUp(49, 100)).toBe(0);
    expect(roundHalfUp(50, 100)).toBe(1);
    expect(feesOn(100_000, 365)).toEqual({ fee: 3650, feeVat: 256, net: 96_094 });
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 200_000_000 }), fc.integer({ min: 0, max: 5_000 }), (amount, bps) => {
        const { fee, feeVat, net } = feesOn(amount, bps);
        expect(fee).toBe(Math.floor((amount * bps) / 10_000 + 0.5));
        expect(Math.abs(fee - (amount * bps) / 10_000)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(feeVat - (fee * 7) / 100)).toBeLessThanOrEqual(0.5);
        expect(net).toBe(amount - fee - feeVat);
        expect(net).toBeGreaterThan(0);
      }),
    );
  });
});

describe('balance arithmetic', () => {
  const totals = fc.record({ available: fc.nat(1_000_000), pending: fc.nat(1_000_000) });
  const sum = (t: BalanceTotals) => t.available + t.pending;

  it('maturing never changes the sum nor goes below zero, however refunds took from pending', () => {
    fc.assert(
      fc.property(totals, fc.nat(2_000_000), (t, matured) => {
        const after = mature(t, matured);
        expect(sum(after)).toBe(sum(t));
        expect(after.pending).toBeGreaterThanOrEqual(0);
        expect(after.available).toBeGreaterThanOrEqual(t.available);
      }),
    );
  });

  it('a refund takes from available first, then pending; more than both is insufficient_funds', () => {
    fc.assert(
      fc.property(totals, fc.integer({ min: 1, max: 2_000_000 }), (t, amount) => {
        if (amount > sum(t)) {
          expect(() => takeForRefund(t, amount)).toThrow(DomainError);
          return;
        }
        const after = takeForRefund(t, amount);
        expect(sum(after)).toBe(sum(t) - amount);
        expect(after.available === 0 || after.pending === t.pending).toBe(true);
        expect(Math.min(after.available, after.pending)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('a withdrawal takes from available only', () => {
    fc.assert(
      fc.property(totals, fc.integer({ min: 100, max: 2_000_000 }), (t, amount) => {
        if (amount > t.available) expect(() => takeForWithdrawal(t, amount)).toThrow(/cannot cover/);
        else expect(takeForWithdrawal(t, amount)).toEqual({ available: t.available - amount, pending: t.pending });
      }),
    );
  });
});

describe('withdrawal state machine', () => {
  it('allows exactly pending -> processed | failed and processed -> succeeded | failed', () => {
    const allowed = withdrawalStatuses.flatMap((from) => withdrawalStatuses.filter((to) => canMove(from, to)).map((to) => `${from}->${to}`));
    expect(allowed.sort()).toEqual(['pending->failed', 'pending->processed', 'processed->failed', 'processed->succeeded']);
  });
});
