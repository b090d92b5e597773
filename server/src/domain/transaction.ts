import type { Currency, Satang } from './money.js';
import type { Payment } from './payment.js';

export type TransactionType = 'payment' | 'refund' | 'failed';
export type TransactionStatus = 'pending' | 'succeeded' | 'failed' | 'refunded';

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
