import type { CardDetails } from '../domain/payment.js';
import type { Satang } from '../domain/money.js';

export type CardCharge =
  | { outcome: 'succeeded'; card: CardDetails }
  | { outcome: 'declined'; code: 'insufficient_funds' | 'card_declined'; card: CardDetails | null };

/** A card processor charges a token; an unknown token throws DomainError('invalid_token'). */
export interface CardProcessor {
  charge(request: { tokenId: string; amount: Satang; currency: string }): Promise<CardCharge>;
}
