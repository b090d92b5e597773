import { DomainError } from './errors.js';
import type { Currency, Satang } from './money.js';

/** What a merchant holds: `available` can be withdrawn; `pending` waits out SETTLEMENT_DELAY. */
export interface BalanceTotals {
  available: Satang;
  pending: Satang;
}

export type LedgerEntryType = 'payment' | 'refund' | 'withdrawal' | 'withdrawal_reversal' | 'refund_reversal';
export const ledgerEntryTypes: readonly LedgerEntryType[] = ['payment', 'refund', 'withdrawal', 'withdrawal_reversal', 'refund_reversal'];

/** One append-only line of the ledger; `amount` is signed (negative for money leaving), `net` is what the balance got. */
export interface LedgerEntry {
  id: string;
  merchantId: string;
  type: LedgerEntryType;
  amount: Satang;
  fee: Satang;
  feeVat: Satang;
  net: Satang;
  currency: Currency;
  /** The payment, refund or withdrawal that caused it. */
  sourceId: string;
  /** The withdrawal that paid this entry out, once one has. */
  withdrawalId: string | null;
  availableOn: Date;
  createdAt: Date;
}

export const VAT_PERCENT = 7;
export const MAX_FEE_BPS = 5_000;

/** round_half_up(numerator / denominator) for non-negative integers, exactly. */
export const roundHalfUp = (numerator: number, denominator: number): number => Math.floor((2 * numerator + denominator) / (2 * denominator));

/** The fee on a succeeded payment, VAT on that fee, and what the merchant keeps. */
export function feesOn(amount: Satang, feeBps: number): { fee: Satang; feeVat: Satang; net: Satang } {
  const fee = roundHalfUp(amount * feeBps, 10_000);
  const feeVat = roundHalfUp(fee * VAT_PERCENT, 100);
  return { fee, feeVat, net: amount - fee - feeVat };
}

export function assertFeeBps(feeBps: number): void {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > MAX_FEE_BPS)
    throw new RangeError(`fee must be an integer from 0 to ${MAX_FEE_BPS} basis points; got ${feeBps}.`);
}

/** A payment's credit still inside its settlement delay: what refunds left of its net, waiting until `availableOn`. */
export interface PendingCredit {
  id: string;
  availableOn: Date;
  remaining: Satang;
}

/** What a refund took from one pending credit (recorded in the ledger); negative: what a failed refund gave back to it. */
export interface Draw {
  creditId: string;
  amount: Satang;
}

/** A change of the locked totals, with the draws on pending credits that make it. */
export interface BalanceChange {
  before: BalanceTotals;
  after: BalanceTotals;
  draws: Draw[];
}

/**
 * Credits whose settlement delay has passed move to `available`: exactly what refunds left of each. Anything else
 * would let money mature on another payment's time, so a total that does not fit is a broken ledger, not a rounding.
 */
export function mature(totals: BalanceTotals, maturedRemaining: Satang): BalanceTotals {
  if (maturedRemaining < 0 || maturedRemaining > totals.pending) {
    throw new Error(`matured credits hold ${maturedRemaining} satang but pending is ${totals.pending}: the ledger and the running totals disagree`);
  }
  return { available: totals.available + maturedRemaining, pending: totals.pending - maturedRemaining };
}

const insufficient = (amount: Satang, what: string, has: Satang) =>
  new DomainError('insufficient_funds', `The balance cannot cover ${amount} satang: ${what} is ${has} satang.`, 'amount', { amount, covered: has });

const assertCovered = (totals: BalanceTotals, amount: Satang) => {
  const total = totals.available + totals.pending;
  if (amount > total) throw insufficient(amount, 'available + pending', total);
};

/** Latest-maturing first (ties: the larger id), so a refund delays what would become available soonest the least. */
export const latestMaturingFirst = (a: PendingCredit, b: PendingCredit): number =>
  b.availableOn.getTime() - a.availableOn.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * What a refund needs from pending credits other than its payment's own: what its own pending credit and `available`
 * leave. `own` is null once the payment's credit is available (it is then part of `available`).
 */
export function refundShortfall(totals: BalanceTotals, amount: Satang, own: PendingCredit | null): Satang {
  assertCovered(totals, amount);
  return Math.max(0, amount - Math.min(amount, own?.remaining ?? 0) - totals.available);
}

/**
 * A refund takes first from its payment's own credit (what is left of it), then from `available`, then from the
 * other pending credits, latest-maturing first; each take from a pending credit is a draw, and that credit matures
 * smaller by it. More than `available + pending` is refused. `others` must hold the latest-maturing pending credits
 * that cover `refundShortfall`.
 */
export function takeForRefund(totals: BalanceTotals, amount: Satang, own: PendingCredit | null, others: readonly PendingCredit[]): BalanceChange {
  assertCovered(totals, amount);
  const draws: Draw[] = [];
  let left = amount;
  const drawFrom = (credit: PendingCredit) => {
    const take = Math.min(left, credit.remaining);
    if (take <= 0) return;
    draws.push({ creditId: credit.id, amount: take });
    left -= take;
  };
  if (own) drawFrom(own);
  const fromAvailable = Math.min(left, totals.available);
  left -= fromAvailable;
  for (const credit of [...others].filter((c) => c.id !== own?.id).sort(latestMaturingFirst)) drawFrom(credit);
  if (left > 0)
    throw new Error(`the pending credits given cover ${amount - fromAvailable - left} of the ${amount - fromAvailable} satang a refund needs from pending`);
  return { before: totals, after: { available: totals.available - fromAvailable, pending: totals.pending - (amount - fromAvailable) }, draws };
}

/** A draw a refund made, with whether its credit is still pending now (matured credits are settled first). */
export interface DrawMade extends Draw {
  stillPending: boolean;
}

/**
 * A failed refund gives back what it took: what it drew from a credit that is still pending goes back to that credit,
 * so it matures no earlier than it would have; the rest (taken from `available`, or from credits that have matured
 * since) goes to `available`, where it would be had the refund never been made.
 */
export function giveBackRefund(totals: BalanceTotals, amount: Satang, drawn: readonly DrawMade[]): BalanceChange {
  const draws = drawn.filter((d) => d.stillPending && d.amount > 0).map((d) => ({ creditId: d.creditId, amount: -d.amount }));
  const toPending = -draws.reduce((sum, d) => sum + d.amount, 0);
  if (toPending > amount) throw new Error(`a refund of ${amount} satang cannot have drawn ${toPending} satang from pending credits`);
  return { before: totals, after: { available: totals.available + amount - toPending, pending: totals.pending + toPending }, draws };
}

/** A withdrawal takes from `available` only. */
export function takeForWithdrawal(totals: BalanceTotals, amount: Satang): BalanceTotals {
  if (amount > totals.available) throw insufficient(amount, 'available', totals.available);
  return { ...totals, available: totals.available - amount };
}

export const deltaOf = (before: BalanceTotals, after: BalanceTotals): BalanceTotals => ({
  available: after.available - before.available,
  pending: after.pending - before.pending,
});
