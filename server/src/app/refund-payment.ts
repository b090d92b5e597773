import { notFound } from '../domain/errors.js';
import { refundEvent } from '../domain/events.js';
import type { Merchant } from '../domain/merchant.js';
import { applySettledRefund, refundAmountFor, type Refund } from '../domain/refund.js';
import { paymentTransactionState } from '../domain/transaction.js';
import type { Repositories } from '../ports/repositories.js';
import type { Services } from './services.js';

export interface RefundRequest {
  paymentId: string;
  amount?: number;
  reason?: string;
}

/** Sends money back through the customer's bank; the payment row stays locked so two refunds never overdraw it. */
export async function refundPayment(tx: Repositories, s: Services, merchant: Merchant, request: RefundRequest): Promise<Refund> {
  const payment = await tx.payments.findById(merchant.id, request.paymentId, { lock: true });
  if (!payment) throw notFound('payment_not_found', request.paymentId);
  const amount = refundAmountFor(payment, request.amount);
  const now = s.clock.now();
  const pending: Refund = {
    id: s.ids.next('refund'),
    merchantId: merchant.id,
    paymentId: payment.id,
    amount,
    currency: payment.currency,
    status: 'pending',
    reason: request.reason ?? null,
    createdAt: now,
  };
  const refund: Refund = { ...pending, status: await s.bank.sendRefund(pending) };
  await tx.refunds.insert(refund);

  if (refund.status === 'succeeded') {
    const refunded = applySettledRefund(payment, amount, now);
    await tx.payments.update(refunded);
    await tx.transactions.updatePaymentTransaction(payment.id, paymentTransactionState(refunded));
    await tx.transactions.insert({
      id: s.ids.next('transaction'),
      merchantId: merchant.id,
      paymentId: payment.id,
      refundId: refund.id,
      type: 'refund',
      status: 'succeeded',
      amount: -amount,
      currency: refund.currency,
      createdAt: now,
    });
  }
  if (refund.status !== 'pending') await tx.events.record(refundEvent(s.ids.next('event'), refund, payment, now));
  return refund;
}
