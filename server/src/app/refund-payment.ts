import type { AuditContext } from '../domain/audit.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import type { Payment } from '../domain/payment.js';
import type { PayoutAccount } from '../domain/payout-account.js';
import { refundDestinationOf } from '../domain/bank-transaction.js';
import { applySettledRefund, refundAmountFor, type Refund } from '../domain/refund.js';
import type { RefundOutcome } from '../ports/bank.js';
import type { Repositories } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import { debit, drawForRefund } from './ledger.js';
import { recordRefundOutcome } from './payouts.js';
import type { Services } from './services.js';

export interface RefundRequest {
  paymentId: string;
  amount?: number;
  reason?: string;
}

/** A live refund goes back to the account the payer paid from, as the bank listed it with the payment's transaction. */
async function payerAccountOf(tx: Repositories, payment: Payment): Promise<PayoutAccount> {
  const destination = refundDestinationOf(await tx.bankTransactions.settlingTransactionOf(payment.id));
  if ('refused' in destination)
    throw new DomainError('payment_not_refundable', `Payment ${payment.id} cannot be refunded through the API: ${destination.refused}.`);
  return destination.account;
}

/**
 * Records a refund, `pending`, with everything it takes, in the caller's transaction: the payment row stays locked
 * so two refunds never overdraw it, and the balance row so a refund never takes more than the merchant holds.
 * Nothing leaves the service here: `sendRefund` calls out once this has committed. Audited as `context`'s doing.
 */
export async function refundPayment(tx: Repositories, s: Services, merchant: Merchant, request: RefundRequest, context: AuditContext): Promise<Refund> {
  const payment = await tx.payments.findById(merchant.id, request.paymentId, { lock: true });
  if (!payment) throw notFound('payment_not_found', request.paymentId);
  const amount = refundAmountFor(payment, request.amount);
  const payoutTo = merchant.mode === 'live' ? await payerAccountOf(tx, payment) : null;
  const { before, after, draws } = await drawForRefund(tx, s, merchant.id, payment.id, amount);
  const now = s.clock.now();
  const refund: Refund = {
    id: s.ids.next('refund'),
    merchantId: merchant.id,
    paymentId: payment.id,
    amount,
    currency: payment.currency,
    status: 'pending',
    reason: request.reason ?? null,
    createdAt: now,
  };
  await tx.refunds.insert(refund);
  if (payoutTo) await tx.refundPayouts.recordDestination(refund.id, payoutTo);

  const refunded = applySettledRefund(payment, amount, now);
  await tx.payments.update(refunded);
  await tx.transactions.insert({
    id: s.ids.next('transaction'),
    merchantId: merchant.id,
    paymentId: payment.id,
    refundId: refund.id,
    type: 'refund',
    status: refund.status,
    amount: -amount,
    currency: refund.currency,
    createdAt: now,
  });
  await debit(tx, s, before, after, { merchantId: merchant.id, type: 'refund', amount: -amount, sourceId: refund.id }, draws);
  await recordAudit(tx, s, context, merchant.id, 'refund_created', refund.id, { payment_id: payment.id, amount, reason: refund.reason });
  return refund;
}

/**
 * Sends a recorded test refund to the customer's bank, with no lock held, then records what the bank did in a
 * transaction of its own (`succeeded`, or `failed` giving back what it took). A live refund waits for the payout
 * rail's export instead: it is returned as it is.
 */
export async function sendRefund(s: Services, merchant: Merchant, refund: Refund): Promise<Refund> {
  if (merchant.mode === 'live') return refund;
  const outcome = await s.bank.sendRefund(refund).catch((): RefundOutcome => 'failed');
  return s.uow.run((tx) => recordRefundOutcome(tx, s, refund, outcome));
}
