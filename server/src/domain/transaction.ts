import type { Currency, Satang } from './money.js';
import { idPrefixes } from './ids.js';
import type { Payment } from './payment.js';

/** Every type and status a transaction can have (the transactions list merges one index range per pair it does not filter on). */
export const transactionTypes = ['payment', 'refund', 'failed'] as const;
export const transactionStatuses = ['pending', 'succeeded', 'failed', 'refunded'] as const;
export type TransactionType = (typeof transactionTypes)[number];
export type TransactionStatus = (typeof transactionStatuses)[number];

export interface Transaction {
  id: string;
  merchantId: string;
  paymentId: string;
  refundId: string | null;
  type: TransactionType;
  status: TransactionStatus;
  amount: Satang; // negative for refunds
  currency: Currency;
  createdAt: Date;
}

/**
 * A payment owns one transaction whose type and status follow the payment's state. It is read from the payment, not
 * stored (migration 0030_payment_transactions_derived); a refund's transaction is a row of its own.
 */
export function paymentTransactionState(payment: Pick<Payment, 'status'>): Pick<Transaction, 'type' | 'status'> {
  switch (payment.status) {
    case 'pending':
      return { type: 'payment', status: 'pending' };
    case 'succeeded':
      return { type: 'payment', status: 'succeeded' };
    case 'refunded':
      return { type: 'payment', status: 'refunded' };
    case 'failed':
    case 'expired':
      return { type: 'failed', status: 'failed' };
  }
}

/**
 * A payment's transaction id: `txn_` and the payment id's random part. A payment made before migration 0030 keeps the
 * id its stored transaction had (the API has shown it); the repository reads that one from the payment's row.
 */
export const paymentTransactionId = (paymentId: string): string => `${idPrefixes.transaction}_${paymentId.slice(paymentId.indexOf('_') + 1)}`;

/** A payment's own transaction, as the transactions list shows it. */
export const paymentTransaction = (
  payment: Pick<Payment, 'id' | 'merchantId' | 'status' | 'amount' | 'currency' | 'createdAt'>,
  storedId: string | null = null,
): Transaction => ({
  id: storedId ?? paymentTransactionId(payment.id),
  merchantId: payment.merchantId,
  paymentId: payment.id,
  refundId: null,
  ...paymentTransactionState(payment),
  amount: payment.amount,
  currency: payment.currency,
  createdAt: payment.createdAt,
});
