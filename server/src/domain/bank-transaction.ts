import { bankMoneyProblem, type Payer, type Payment } from './payment.js';
import type { Mode } from './merchant.js';
import type { Satang } from './money.js';
import { thaiBanks, type PayoutAccount } from './payout-account.js';

/** Money the bank reports as paid to the deployment's biller account, as its inquiry API lists it. */
export interface BankTransaction {
  /** The bank's own id (SCB `transactionId`): a payment is applied at most once per id. */
  transactionId: string;
  /** The amount as the bank wrote it; see `parseBankAmount`. */
  amount: string | number;
  paidAt: Date;
  ref1: string;
  ref2: string | null;
  billerId: string;
  payerName: string | null;
  payerAccount: string | null;
  sendingBankCode: string | null;
  /** The bank reversed it (`reverseFlag` "R"): never applied. */
  reversed: boolean;
}

/** A bank confirmation as the bank posts it: only a claim, checked against the inquiry before anything happens. */
export interface BankConfirmation {
  transactionId: string;
  ref1: string;
  amount: string | number;
  paidAt: Date;
  billerId: string | null;
}

/** `till_closed` and `amount_out_of_range`: money paid to a till's static QR that makes no payment (see `staticPaymentProblem`). */
export type UnmatchedReason = 'amount_mismatch' | 'unknown_reference' | 'payment_not_pending' | 'payment_expired' | 'till_closed' | 'amount_out_of_range';

/** Money the bank received that settles no payment, kept for the operator with the reason. */
export interface UnmatchedBankTransaction {
  id: string;
  transactionId: string;
  reason: UnmatchedReason;
  ref1: string;
  amount: string;
  paymentId: string | null;
  paidAt: Date;
  recordedAt: Date;
  /** The payer as the bank listed them: where a return goes. */
  payerName: string | null;
  payerAccount: string | null;
  sendingBankCode: string | null;
  resolution: UnmatchedResolution | null;
}

/** What the operator did with unmatched money: sent it back to the payer (once), or closed it with a note. */
export type UnmatchedResolution =
  | { kind: 'returned'; destination: PayoutAccount; amount: Satang; status: ReturnStatus; exported: boolean; at: Date }
  | { kind: 'resolved'; note: string; at: Date };

/** A return travels the payout rail as a live refund does: pending until exported and marked by the operator. */
export type ReturnStatus = 'pending' | 'succeeded' | 'failed';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "100", "100.00", 100 and "2.0100" are exact baht; a fraction of a satang, or anything else, is not money: null. */
export function parseBankAmount(amount: unknown): Satang | null {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? String(amount) : '') : typeof amount === 'string' ? amount.trim() : '';
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return null;
  const satang = BigInt(match[1]!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return satang <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(satang) : null;
}

/** The same money, whichever shape each side wrote it in. */
export function sameAmount(a: unknown, b: unknown): boolean {
  const left = parseBankAmount(a);
  return left !== null ? left === parseBankAmount(b) : String(a) === String(b);
}

export function parseBankTime(text: unknown): Date | null {
  if (typeof text !== 'string' || !ISO_8601.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A body is a confirmation when it carries a string transactionId and billPaymentRef1, an ISO 8601 time and an amount. */
export function parseConfirmation(body: unknown): BankConfirmation | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const paidAt = parseBankTime(b.transactionDateandTime);
  const amountGiven = typeof b.amount === 'string' || typeof b.amount === 'number';
  if (typeof b.transactionId !== 'string' || !b.transactionId || typeof b.billPaymentRef1 !== 'string' || !paidAt || !amountGiven) return null;
  return {
    transactionId: b.transactionId,
    ref1: b.billPaymentRef1,
    amount: b.amount as string | number,
    paidAt,
    billerId: typeof b.payeeProxyId === 'string' ? b.payeeProxyId : null,
  };
}

const BANGKOK_OFFSET_MS = 7 * 3_600_000; // Thailand keeps UTC+7 all year
const NEAR_MIDNIGHT_MS = 15 * 60_000;

/** The bank files transactions under their date in Asia/Bangkok (YYYY-MM-DD). */
export function bangkokDate(at: Date): string {
  return new Date(at.getTime() + BANGKOK_OFFSET_MS).toISOString().slice(0, 10);
}

/** The dates to ask the inquiry about for a moment: its own, and the neighbouring one when it is near midnight. */
export function inquiryDatesAround(at: Date): string[] {
  return [...new Set([new Date(at.getTime() - NEAR_MIDNIGHT_MS), at, new Date(at.getTime() + NEAR_MIDNIGHT_MS)].map(bangkokDate))];
}

/** The dates to ask about a till's reference now: today in Bangkok, and yesterday too until 00:15. */
export function tillInquiryDates(now: Date): string[] {
  return [...new Set([bangkokDate(new Date(now.getTime() - NEAR_MIDNIGHT_MS)), bangkokDate(now)])];
}

/** Every Bangkok date a payment could have been paid on, from its creation to its expiry (or now, if sooner). */
export function inquiryDatesBetween(from: Date, to: Date): string[] {
  const dates = new Set(inquiryDatesAround(from));
  for (let t = from.getTime(); t < to.getTime(); t += 86_400_000) dates.add(bangkokDate(new Date(t)));
  for (const date of inquiryDatesAround(to)) dates.add(date);
  return [...dates].sort();
}

/** The short name merchants know a Thai bank by; an unlisted code stands for itself. */
export const bankShortName = (code: string): string => thaiBanks[code] ?? code;

export function payerOf(transaction: BankTransaction): Partial<Payer> {
  return {
    clientName: transaction.payerName || null,
    clientBankName: transaction.sendingBankCode ? bankShortName(transaction.sendingBankCode) : null,
    clientBankAccount: transaction.payerAccount || null,
  };
}

/** Whether the bank's money settles this payment (of a merchant in `mode`), or why it does not. */
export function unmatchedReasonOf(payment: Payment | null, mode: Mode, transaction: BankTransaction): UnmatchedReason | null {
  if (!payment) return 'unknown_reference';
  const problem = bankMoneyProblem(payment, mode, transaction.paidAt);
  if (problem) return problem;
  if (parseBankAmount(transaction.amount) !== payment.amount) return 'amount_mismatch';
  return null;
}

/** Unmatched money still waiting for the operator: never handled, or its return failed. */
export const isOpen = (u: Pick<UnmatchedBankTransaction, 'resolution'>): boolean =>
  u.resolution === null || (u.resolution.kind === 'returned' && u.resolution.status === 'failed');

/** The payer of money the bank received, exactly as the bank's inquiry listed it. */
export type ReportedPayer = Pick<BankTransaction, 'payerName' | 'payerAccount' | 'sendingBankCode'>;

/** Where money goes back to, or why it cannot go back at all. */
export type RefundDestination = { account: PayoutAccount } | { refused: string };

const ACCOUNT_NUMBER = /^\d{10,15}$/;

/**
 * Money goes back only to the account the bank reported it came from, never to anything a merchant (or a stolen API
 * key) supplied: the account number must be complete (a masked `xxx-x-x8820-x` is not) and its bank one the payout
 * rail can pay. Used for live refunds and for returning unmatched money alike.
 */
export function refundDestinationOf(payer: ReportedPayer | null): RefundDestination {
  if (!payer?.payerAccount) return { refused: "the payer's bank account is unknown (the bank did not report it), so there is nowhere to send the money" };
  if (!ACCOUNT_NUMBER.test(payer.payerAccount)) {
    return {
      refused: `the payer's account number the bank reported ('${payer.payerAccount}') is not 10 to 15 digits (a masked or partial number cannot be paid)`,
    };
  }
  const bankCode = payer.sendingBankCode ?? '';
  if (!Object.hasOwn(thaiBanks, bankCode))
    return { refused: `the payer's bank code '${bankCode}' is not one of ${Object.keys(thaiBanks).join(', ')}, the banks the payout rail can pay` };
  return { account: { bankCode, accountNumber: payer.payerAccount, accountName: payer.payerName?.trim() ?? '' } };
}

/** Why unmatched money cannot go back to the payer now, or null: it goes back once, to the account the bank listed. */
export function returnProblem(u: UnmatchedBankTransaction): string | null {
  if (u.resolution?.kind === 'returned')
    return `${u.id} was already returned once (${u.resolution.status}); it is not sent twice. Close it with a note instead.`;
  if (u.resolution?.kind === 'resolved') return `${u.id} was closed with a note; it cannot be returned.`;
  const amount = parseBankAmount(u.amount);
  if (amount === null || amount <= 0) return `${u.id}: the bank's amount '${u.amount}' is not an exact amount in satang. Close it with a note instead.`;
  const destination = refundDestinationOf(u);
  return 'refused' in destination ? `${u.id} cannot be returned: ${destination.refused}. Close it with a note instead.` : null;
}

/** The return of unmatched money to the payer, waiting for the next bulk-transfer export; the caller has checked `returnProblem`. */
export function returnToPayer(u: UnmatchedBankTransaction, at: Date): UnmatchedResolution {
  const amount = parseBankAmount(u.amount);
  const destination = refundDestinationOf(u);
  if (returnProblem(u) || amount === null || !('account' in destination)) throw new RangeError(`${u.id} cannot be returned`);
  return { kind: 'returned', destination: destination.account, amount, status: 'pending', exported: false, at };
}

const MAX_NOTE_LENGTH = 500;

/** Why unmatched money cannot be closed with this note, or null: only open money, never over a return under way. */
export function resolveProblem(u: UnmatchedBankTransaction, note: string): string | null {
  const text = note.trim();
  // eslint-disable-next-line no-control-regex
  if (!text || text.length > MAX_NOTE_LENGTH || /[\u0000-\u001f\u007f]/.test(text))
    return `the note must be 1 to ${MAX_NOTE_LENGTH} characters, without control characters.`;
  if (u.resolution && !isOpen(u)) {
    const state = u.resolution.kind === 'returned' ? `returned (${u.resolution.status})` : 'already closed with a note';
    return `${u.id} is ${state}; only open unmatched money can be closed.`;
  }
  return null;
}

/** Unmatched money closed with the operator's note (handled outside the service); the caller has checked `resolveProblem`. */
export const resolveWithNote = (note: string, at: Date): UnmatchedResolution => ({ kind: 'resolved', note: note.trim(), at });
