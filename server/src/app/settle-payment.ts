import type { AuditContext } from '../domain/audit.js';
import { notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import { assertPending, expire, fail, succeed, type Payer, type Payment } from '../domain/payment.js';
import type { Repositories } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import { savePaymentState } from './payment-state.js';
import type { Services } from './services.js';

export type BankOutcome = { kind: 'succeeded'; payer: Partial<Payer> } | { kind: 'failed' } | { kind: 'expired' };

/**
 * The customer's bank reports what happened to a pending payment. In test mode the sandbox bank is driven by the
 * test helpers (audited as `context`'s doing); live keys have no test helpers, so they see an unknown payment.
 */
export async function settlePayment(
  tx: Repositories,
  s: Services,
  merchant: Merchant,
  paymentId: string,
  outcome: BankOutcome,
  context: AuditContext,
): Promise<Payment> {
  const payment = merchant.mode === 'test' ? await tx.payments.findById(merchant.id, paymentId, { lock: true }) : null;
  if (!payment) throw notFound('payment_not_found', paymentId);
  const now = s.clock.now();
  assertPending(payment, now);
  const settled = outcome.kind === 'succeeded' ? succeed(payment, now, outcome.payer) : outcome.kind === 'failed' ? fail(payment, now) : expire(payment, now);
  await savePaymentState(tx, s, settled);
  await recordAudit(tx, s, context, merchant.id, 'test_payment_completed', payment.id, { outcome: outcome.kind });
  return settled;
}
