import type { Satang } from './money.js';

/** What a slip's mini QR names: the sending bank's code and its transaction reference (as `promptparse` reads it). */
export interface SlipQr {
  sendingBank: string;
  transRef: string;
}

export const slipStatuses = ['verified', 'duplicate', 'not_found', 'wrong_receiver', 'amount_mismatch'] as const;
export type SlipStatus = (typeof slipStatuses)[number];

/** One slip checked by one merchant: a record per request, whatever its verdict. */
export interface SlipVerification {
  id: string;
  merchantId: string;
  status: SlipStatus;
  slip: SlipQr;
  /** What the bank listed for the slip (null when it knows none). */
  amount: Satang | null;
  paidAt: Date | null;
  /** The merchant's own payment the money went to; never another merchant's. */
  paymentId: string | null;
  /** When the bank transaction's slip was first verified (this one's own time when it is the first). */
  firstVerifiedAt: Date | null;
  createdAt: Date;
}

/** What the service learnt about a slip before judging it. */
export interface SlipFacts {
  /** The bank lists the transaction the slip names. */
  known: boolean;
  /** A slip of this bank transaction was verified before, by any merchant. */
  verifiedBefore: boolean;
  /** The money went to the operator's biller id with a ref1 of this merchant (and of the named payment, if one is named). */
  ours: boolean;
  /** The bank's amount is the expected one: the request's `amount`, and the payment's. */
  amountFits: boolean;
}

/**
 * The verdict when several apply, first match wins:
 * - `not_found` first: a transaction the bank does not list has no receiver, amount or history to judge.
 * - `duplicate` next: a reused slip is the fraud to call out whoever shows it, and its money was counted once already.
 * - `wrong_receiver` before `amount_mismatch`: an amount is only compared for money that is this merchant's.
 * - `amount_mismatch` before `verified`: money of the wrong amount does not pay what was expected.
 */
export function slipVerdict(facts: SlipFacts): SlipStatus {
  if (!facts.known) return 'not_found';
  if (facts.verifiedBefore) return 'duplicate';
  if (!facts.ours) return 'wrong_receiver';
  if (!facts.amountFits) return 'amount_mismatch';
  return 'verified';
}

/** The one key of a bank transaction across all merchants: at most one `verified` slip per key. */
export const bankTransactionKey = (slip: SlipQr): string => `${slip.sendingBank}:${slip.transRef}`;
