import { notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import { assertChargeable, type Satang } from '../domain/money.js';
import type { Payer, Payment } from '../domain/payment.js';
import { assertTillTakesPayments, type Till } from '../domain/till.js';
import type { Repositories } from '../ports/repositories.js';
import { saveNewPayment } from './payment-state.js';
import type { Services } from './services.js';

/** What the customer paid to a till's static QR: the amount they typed, when the bank took it, who they are. */
export interface StaticPaymentMoney {
  amount: Satang;
  paidAt: Date;
  payer: Partial<Payer>;
}

/**
 * Money paid to a till's static QR becomes a payment born `succeeded`: the till's, pointing at its static QR, without a
 * reference or an expiry, completed at the bank's time. Its transaction row, the credit (fee, ledger) and
 * `payment.succeeded` are written in the caller's transaction, as for any payment (and no `payment.pending`).
 */
export async function recordStaticPayment(tx: Repositories, s: Services, till: Till, money: StaticPaymentMoney): Promise<Payment> {
  const now = s.clock.now();
  const payment: Payment = {
    id: s.ids.next('payment'),
    merchantId: till.merchantId,
    qrCodeId: till.staticQr.qrCodeId,
    tillId: till.id,
    status: 'succeeded',
    amount: money.amount,
    currency: 'THB',
    reference: null,
    description: null,
    clientName: money.payer.clientName ?? null,
    clientBankName: money.payer.clientBankName ?? null,
    clientBankAccount: money.payer.clientBankAccount ?? null,
    metadata: {},
    refundedAmount: 0,
    card: null,
    createdAt: now,
    updatedAt: now,
    completedAt: money.paidAt,
    expiresAt: null,
  };
  await saveNewPayment(tx, s, payment);
  return payment;
}

/**
 * Test mode: a customer scanned a test till's static QR and typed `amount`. Live keys have no test helpers (the till is
 * unknown to them); a closed till takes nothing.
 */
export async function createTestTillPayment(tx: Repositories, s: Services, merchant: Merchant, tillId: string, amount: Satang): Promise<Payment> {
  const till = merchant.mode === 'test' ? await tx.tills.findById(merchant.id, tillId, { lock: true }) : null;
  if (!till) throw notFound('till_not_found', tillId);
  assertTillTakesPayments(till, tillId);
  assertChargeable(amount);
  return recordStaticPayment(tx, s, till, { amount, paidAt: s.clock.now(), payer: {} });
}
