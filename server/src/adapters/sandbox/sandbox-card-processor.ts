import { DomainError } from '../../domain/errors.js';
import type { CardCharge, CardProcessor } from '../../ports/card-processor.js';

/** The test-mode card tokens of the product decisions. */
const sandboxTokens: Record<string, CardCharge> = {
  tok_visa: { outcome: 'succeeded', card: { brand: 'visa', last4: '4242' } },
  tok_mastercard: { outcome: 'succeeded', card: { brand: 'mastercard', last4: '4444' } },
  tok_insufficient_funds: { outcome: 'declined', code: 'insufficient_funds', card: { brand: 'visa', last4: '9995' } },
  tok_declined: { outcome: 'declined', code: 'card_declined', card: { brand: 'visa', last4: '0002' } },
};

export const sandboxCardProcessor: CardProcessor = {
  async charge({ tokenId }) {
    const charge = Object.hasOwn(sandboxTokens, tokenId) ? sandboxTokens[tokenId] : undefined;
    if (!charge) {
      throw new DomainError('invalid_token', `Unknown card token '${tokenId}'. Test tokens: ${Object.keys(sandboxTokens).join(', ')}.`, 'token_id');
    }
    return charge;
  },
};
