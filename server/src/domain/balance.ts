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
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > MAX_FEE_BPS) throw new RangeError(`fee must be an integer from 0 to ${MAX_FEE_BPS} basis points; got ${feeBps}.`);
}

/**
 * Pending credits whose settlement delay has passed move to `available`. A refund may have taken from `pending`
 * already, so no more than `pending` ever moves: both totals stay at or above zero and their sum is unchanged.
 */
export function mature(totals: BalanceTotals, maturedNet: Satang): BalanceTotals {
  const moved = Math.min(maturedNet, totals.pending);
  return { available: totals.available + moved, pending: totals.pending - moved };
}

const insufficient = (amount: Satang, what: string, has: Satang) =>
  new DomainError('insufficient_funds', `The balance cannot cover ${amount} satang: ${what} is ${has} satang.`, 'amount');

/** A refund takes from `available` first, then `pending`; more than both is refused. */
export function takeForRefund(totals: BalanceTotals, amount: Satang): BalanceTotals {
  const total = totals.available + totals.pending;
  if (amount > total) throw insufficient(amount, 'available + pending', total);
  const fromAvailable = Math.min(amount, totals.available);
  return { available: totals.available - fromAvailable, pending: totals.pending - (amount - fromAvailable) };
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
