import { DomainError } from './errors.js';
import type { Currency, Satang } from './money.js';
import type { Payment } from './payment.js';

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

export interface Refund {
  id: string;
  merchantId: string;
  paymentId: string;
  amount: Satang;
  currency: Currency;
  status: RefundStatus;
  reason: string | null;
  createdAt: Date;
}

export const refundableAmount = (payment: Payment): Satang => (payment.status === 'succeeded' ? payment.amount - payment.refundedAmount : 0);

/** Decides how much a refund request returns; `requested` defaults to everything still refundable. */
export function refundAmountFor(payment: Payment, requested: Satang | undefined): Satang {
  if (payment.status !== 'succeeded') {
    throw new DomainError(
      'payment_not_refundable',
      `Payment ${payment.id} is ${payment.status}; only a succeeded payment with a refundable balance can be refunded.`,
    );
  }
  const refundable = refundableAmount(payment);
  const amount = requested ?? refundable;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > refundable) {
    throw new DomainError('invalid_amount', `Refund amount must be between 1 and ${refundable} satang (what is still refundable); got ${amount}.`, 'amount', {
      refundable,
    });
  }
  return amount;
}

/** A settled refund reduces the refundable balance; refunding everything moves succeeded -> refunded. */
export function applySettledRefund(payment: Payment, amount: Satang, now: Date): Payment {
  const refundedAmount = payment.refundedAmount + amount;
  return {
    ...payment,
    refundedAmount,
    status: refundedAmount === payment.amount ? 'refunded' : payment.status,
    updatedAt: now,
  };
}

/** A refund that failed after it was applied gives the payment back what it took: refunded -> succeeded. */
export function revertRefund(payment: Payment, amount: Satang, now: Date): Payment {
  return { ...payment, refundedAmount: payment.refundedAmount - amount, status: payment.status === 'refunded' ? 'succeeded' : payment.status, updatedAt: now };
}
