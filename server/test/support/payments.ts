import type { Payment } from '../../src/domain/payment.js';

/** A payment record as the domain holds it: what the test names, and nothing else filled in (no payer, no card, no expiry). */
export function paymentRecord(fields: Pick<Payment, 'id' | 'merchantId' | 'status' | 'amount' | 'createdAt'> & Partial<Payment>): Payment {
  return {
    qrCodeId: null,
    tillId: null,
    currency: 'THB',
    reference: null,
    description: null,
    clientName: null,
    clientBankName: null,
    clientBankAccount: null,
    metadata: {},
    refundedAmount: 0,
    card: null,
    updatedAt: fields.createdAt,
    completedAt: null,
    expiresAt: null,
    ...fields,
  };
}
