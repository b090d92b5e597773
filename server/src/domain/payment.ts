import { DomainError } from './errors.js';
import type { Mode } from './merchant.js';
import type { Currency, Satang } from './money.js';

/** Every status a payment can have (the unfiltered payments list merges one index range per status). */
export const paymentStatuses = ['pending', 'succeeded', 'failed', 'expired', 'refunded'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export interface Payer {
  clientName: string | null;
  clientBankName: string | null;
  clientBankAccount: string | null;
}

export interface CardDetails {
  brand: 'visa' | 'mastercard';
  last4: string;
}

export type Metadata = Record<string, unknown>;

export interface Payment extends Payer {
  id: string;
  merchantId: string;
  qrCodeId: string | null;
  /** The till it was taken at (a QR code generated there, or the till's static QR); null when none. */
  tillId: string | null;
  status: PaymentStatus;
  amount: Satang;
  currency: Currency;
  reference: string | null;
  description: string | null;
  metadata: Metadata;
  refundedAmount: Satang;
  card: CardDetails | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  expiresAt: Date | null;
}

/** Only a pending payment before its expiry can be settled by the customer's bank. */
export function assertPending(payment: Payment, now: Date): void {
  const pastExpiry = payment.expiresAt !== null && now.getTime() >= payment.expiresAt.getTime();
  if (payment.status !== 'pending' || pastExpiry) {
    const state = payment.status === 'pending' ? 'past its expiry' : payment.status;
    throw new DomainError('payment_not_pending', `Payment ${payment.id} is ${state}; only a pending payment can change.`);
  }
}

/** The customer paid: pending -> succeeded. Payer details fill only what the merchant left empty. */
export function succeed(payment: Payment, now: Date, payer: Partial<Payer> = {}): Payment {
  assertPending(payment, now);
  return paid(payment, now, payer);
}

function paid(payment: Payment, now: Date, payer: Partial<Payer>): Payment {
  return {
    ...payment,
    status: 'succeeded',
    clientName: payment.clientName ?? payer.clientName ?? null,
    clientBankName: payment.clientBankName ?? payer.clientBankName ?? null,
    clientBankAccount: payment.clientBankAccount ?? payer.clientBankAccount ?? null,
    completedAt: now,
    updatedAt: now,
  };
}

/** The customer's payment was declined: pending -> failed. */
export function fail(payment: Payment, now: Date): Payment {
  assertPending(payment, now);
  return { ...payment, status: 'failed', updatedAt: now };
}

/** The QR code ran out: pending -> expired. The sweeper calls it once expiry has passed. */
export function expire(payment: Payment, now: Date): Payment {
  if (payment.status !== 'pending') {
    throw new DomainError('payment_not_pending', `Payment ${payment.id} is ${payment.status}; only a pending payment can expire.`);
  }
  return { ...payment, status: 'expired', updatedAt: now };
}

/** A live payment made in the last second reaches the bank's listing a little later: the sweeper gives it this long. */
export const LIVE_EXPIRY_GRACE_MS = 60_000;

/** When the sweeper may expire a pending payment: a test one at `expires_at`, a live one a grace period later. */
export const expiryDueAt = (expiresAt: Date, mode: Mode): Date => new Date(expiresAt.getTime() + (mode === 'live' ? LIVE_EXPIRY_GRACE_MS : 0));

/**
 * Whether money the bank took at `paidAt` can settle this payment, or why not. The bank's time decides: money taken at
 * or before `expires_at` settles a pending payment, and a live payment the sweeper already marked expired.
 */
export function bankMoneyProblem(payment: Payment, mode: Mode, paidAt: Date): 'payment_not_pending' | 'payment_expired' | null {
  const inTime = payment.expiresAt === null || paidAt.getTime() <= payment.expiresAt.getTime();
  const reopenable = payment.status === 'expired' && mode === 'live' && inTime;
  if (payment.status !== 'pending' && !reopenable) return 'payment_not_pending';
  return inTime ? null : 'payment_expired';
}

/** The bank took the customer's money in time: pending -> succeeded, or expired -> succeeded for a live payment. */
export function succeedByBank(payment: Payment, mode: Mode, paidAt: Date, payer: Partial<Payer> = {}): Payment {
  const problem = bankMoneyProblem(payment, mode, paidAt);
  if (problem) {
    const state = problem === 'payment_expired' ? 'paid after its expiry' : payment.status;
    throw new DomainError('payment_not_pending', `Payment ${payment.id} is ${state}; the bank's money cannot settle it.`);
  }
  return paid(payment, paidAt, payer);
}
