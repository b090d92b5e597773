import { paymentEvent, paymentEventKind } from '../domain/events.js';
import type { Payment } from '../domain/payment.js';
import { paymentTransactionState } from '../domain/transaction.js';
import type { Repositories } from '../ports/repositories.js';
import { creditPayment } from './ledger.js';
import type { Services } from './services.js';

/**
 * Persists a payment's new state with its transaction row, its event and, once it has succeeded, the credit to its
 * merchant's balance: all in the caller's transaction. Every way a payment completes comes through here.
 */
export async function savePaymentState(tx: Repositories, s: Services, payment: Payment): Promise<void> {
  await tx.payments.update(payment);
  await tx.transactions.updatePaymentTransaction(payment.id, paymentTransactionState(payment));
  if (payment.status === 'succeeded') await creditPayment(tx, s, payment);
  const kind = paymentEventKind(payment);
  if (kind) await tx.events.record(paymentEvent(s.ids.next('event'), kind, payment, payment.updatedAt));
}

/** Records a new payment with its transaction row and its first event. */
export async function saveNewPayment(tx: Repositories, s: Services, payment: Payment): Promise<void> {
  await tx.payments.insert(payment);
  await tx.transactions.insert({
    id: s.ids.next('transaction'),
    merchantId: payment.merchantId,
    paymentId: payment.id,
    refundId: null,
    ...paymentTransactionState(payment),
    amount: payment.amount,
    currency: payment.currency,
    createdAt: payment.createdAt,
  });
  if (payment.status === 'succeeded') await creditPayment(tx, s, payment); // a card charge approved at once
  const kind = paymentEventKind(payment);
  if (kind) await tx.events.record(paymentEvent(s.ids.next('event'), kind, payment, payment.createdAt));
}
