import { DomainError } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import { assertMetadata } from '../domain/metadata.js';
import { assertChargeable, assertCurrency } from '../domain/money.js';
import type { Metadata, Payment } from '../domain/payment.js';
import type { Repositories } from '../ports/repositories.js';
import { saveNewPayment } from './payment-state.js';
import type { Services } from './services.js';

export interface CardPaymentRequest {
  tokenId: string;
  amount: number;
  currency: string;
  description?: string;
  metadata?: Metadata;
}

export type CardPaymentResult = { payment: Payment; declined: null } | { payment: Payment; declined: DomainError };

/** Charges a card token. A declined charge is still recorded, as a failed payment, and reported as declined. */
export async function createCardPayment(tx: Repositories, s: Services, merchant: Merchant, request: CardPaymentRequest): Promise<CardPaymentResult> {
  assertChargeable(request.amount);
  assertCurrency(request.currency);
  const metadata = request.metadata ?? {};
  assertMetadata(metadata);
  const processor = s.cardProcessors[merchant.mode];
  if (!processor) {
    throw new DomainError('card_payments_unavailable', 'Card payments are not enabled for live keys on this deployment; use QR payments.', 'token_id');
  }

  const charge = await processor.charge({ tokenId: request.tokenId, amount: request.amount, currency: request.currency });
  const now = s.clock.now();
  const payment: Payment = {
    id: s.ids.next('payment'),
    merchantId: merchant.id,
    qrCodeId: null,
    tillId: null,
    status: charge.outcome === 'succeeded' ? 'succeeded' : 'failed',
    amount: request.amount,
    currency: request.currency,
    reference: null,
    description: request.description ?? null,
    clientName: null,
    clientBankName: null,
    clientBankAccount: null,
    metadata,
    refundedAmount: 0,
    card: charge.card,
    createdAt: now,
    updatedAt: now,
    completedAt: charge.outcome === 'succeeded' ? now : null,
    expiresAt: null,
  };
  await saveNewPayment(tx, s, payment);
  if (charge.outcome === 'succeeded') return { payment, declined: null };
  const message = charge.code === 'insufficient_funds' ? 'The card has insufficient funds.' : 'The card was declined.';
  return { payment, declined: new DomainError(charge.code, `${message} Payment ${payment.id} was recorded as failed.`) };
}
