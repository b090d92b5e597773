import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  feesOn,
  giveBackRefund,
  latestMaturingFirst,
  mature,
  refundShortfall,
  roundHalfUp,
  takeForRefund,
  takeForWithdrawal,
  type PendingCredit,
} from '../../src/domain/balance.js';
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

  it('maturing moves exactly what is left of the matured credits; more than pending is a broken ledger', () => {
    fc.assert(
      fc.property(totals, fc.nat(2_000_000), (t, matured) => {
        if (matured > t.pending) {
          expect(() => mature(t, matured)).toThrow(/disagree/);
          return;
        }
        expect(mature(t, matured)).toEqual({ available: t.available + matured, pending: t.pending - matured });
      }),
    );
  });

  it('a refund larger than available + pending is insufficient_funds, before any credit is looked at', () => {
    const t = { available: 300, pending: 700 };
    expect(() => refundShortfall(t, 1001, null)).toThrow(DomainError);
    expect(() => takeForRefund(t, 1001, null, [])).toThrow(/cannot cover 1001 satang: available \+ pending is 1000/);
  });
});

const credit = (id: string, second: number, remaining: number): PendingCredit => ({ id, availableOn: new Date(second * 1000), remaining });

describe('the draw order of a refund', () => {
  it('takes its own pending credit first, even with money available, and that credit matures smaller', () => {
    const own = credit('bt_own', 40, 8000);
    const change = takeForRefund({ available: 10_000, pending: 8000 }, 3000, own, []);
    expect(change.after).toEqual({ available: 10_000, pending: 5000 });
    expect(change.draws).toEqual([{ creditId: 'bt_own', amount: 3000 }]);
  });

  it('beyond its own credit: available next, then other pending credits latest-maturing first', () => {
    const own = credit('bt_own', 40, 500);
    const early = credit('bt_early', 50, 4000);
    const late = credit('bt_late', 60, 4000);
    const t = { available: 1000, pending: 8500 };
    expect(refundShortfall(t, 6000, own)).toBe(4500);
    const change = takeForRefund(t, 6000, own, [early, late]);
    expect(change.draws).toEqual([
      { creditId: 'bt_own', amount: 500 },
      { creditId: 'bt_late', amount: 4000 },
      { creditId: 'bt_early', amount: 500 },
    ]);
    expect(change.after).toEqual({ available: 0, pending: 3500 });
  });

  it('an own credit that is available already is part of available (no draw on pending for it)', () => {
    const change = takeForRefund({ available: 700, pending: 5000 }, 1000, null, [credit('bt_other', 90, 5000)]);
    expect(change.draws).toEqual([{ creditId: 'bt_other', amount: 300 }]);
    expect(change.after).toEqual({ available: 0, pending: 4700 });
  });

  it('the reproduction: a refunded payment’s credit matures empty, so a later payment keeps its own time', () => {
    // P1 at 0 s refunded in full, P2 at 20 s; at 42 s only P1 (drawn empty) has matured.
    const p1 = credit('bt_p1', 40, 10_000);
    const refund = takeForRefund({ available: 0, pending: 10_000 }, 10_000, p1, []);
    expect(refund.draws).toEqual([{ creditId: 'bt_p1', amount: 10_000 }]);
    const afterP2 = { available: refund.after.available, pending: refund.after.pending + 10_000 };
    expect(mature(afterP2, 10_000 - 10_000)).toEqual({ available: 0, pending: 10_000 });
  });

  const credits = fc.uniqueArray(
    fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }).map((s) => `bt_${s}`), second: fc.nat(50), remaining: fc.nat(5000) }),
    {
      selector: (c) => c.id,
      maxLength: 8,
    },
  );

  it('property: own first, then available, then others strictly latest-maturing first; the totals move by exactly the draws', () => {
    fc.assert(
      fc.property(credits, fc.boolean(), fc.nat(10_000), fc.integer({ min: 1, max: 40_000 }), (raw, hasOwn, available, amount) => {
        const all = raw.map((c) => credit(c.id, c.second, c.remaining));
        const own = hasOwn && all.length > 0 ? all[0]! : null;
        const others = all.filter((c) => c !== own);
        const t = { available, pending: all.reduce((sum, c) => sum + c.remaining, 0) };
        if (amount > t.available + t.pending) {
          expect(() => takeForRefund(t, amount, own, others)).toThrow(DomainError);
          return;
        }
        const change = takeForRefund(t, amount, own, others);
        const drawn = new Map(change.draws.map((d) => [d.creditId, d.amount]));
        const fromPending = change.draws.reduce((sum, d) => sum + d.amount, 0);
        const fromAvailable = t.available - change.after.available;
        expect(fromPending + fromAvailable).toBe(amount);
        expect(change.after.pending).toBe(t.pending - fromPending);
        for (const d of change.draws) expect(d.amount).toBeGreaterThan(0);
        for (const c of all) expect(drawn.get(c.id) ?? 0).toBeLessThanOrEqual(c.remaining);
        const ownTake = own ? Math.min(amount, own.remaining) : 0;
        expect(drawn.get(own?.id ?? '') ?? 0).toBe(ownTake);
        expect(fromAvailable).toBe(Math.min(amount - ownTake, t.available));
        // An other credit is drawn only once every later-maturing one is drawn empty.
        const sorted = [...others].sort(latestMaturingFirst);
        sorted.forEach((c, i) => {
          if ((drawn.get(c.id) ?? 0) > 0) for (const later of sorted.slice(0, i)) expect(drawn.get(later.id) ?? 0).toBe(later.remaining);
        });
        expect(refundShortfall(t, amount, own)).toBe(amount - ownTake - fromAvailable);
      }),
    );
  });

  it('a failed refund gives back to the credits it drew on that are still pending, the rest to available', () => {
    const change = giveBackRefund({ available: 100, pending: 2000 }, 6000, [
      { creditId: 'bt_own', amount: 500, stillPending: true },
      { creditId: 'bt_late', amount: 4000, stillPending: false },
      { creditId: 'bt_early', amount: 500, stillPending: true },
    ]);
    expect(change.draws).toEqual([
      { creditId: 'bt_own', amount: -500 },
      { creditId: 'bt_early', amount: -500 },
    ]);
    expect(change.after).toEqual({ available: 100 + 5000, pending: 3000 });
  });
});

describe('withdrawals', () => {
  const totals = fc.record({ available: fc.nat(1_000_000), pending: fc.nat(1_000_000) });

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
