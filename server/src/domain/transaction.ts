import type { Currency, Satang } from './money.js';
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

/** A payment owns one transaction whose type and status follow the payment's state. */
export function paymentTransactionState(payment: Payment): Pick<Transaction, 'type' | 'status'> {
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
