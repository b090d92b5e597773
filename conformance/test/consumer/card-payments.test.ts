import { PaymentDeclinedError, ValidationError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { errorLike, jsonResponse, paymentLike, postHeaders } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

describe('payments.create (card)', () => {
  it('charges the sandbox visa token', async () => {
    const charge = { token_id: 'tok_visa', amount: 89000, currency: 'THB', description: 'Pro plan, 12 months', metadata: { order_id: 'ORD-88250' } } as const;
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to charge the sandbox visa token')
      .withRequest('POST', '/Thai/v1/payments', (request) => request.headers(postHeaders).jsonBody(charge))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(paymentLike({ kind: 'card', status: 'succeeded', amount: 89000, completed: true, metadata: charge.metadata })),
      )
      .executeTest(async (mock) => {
        const payment = await sdkAgainst(mock).payments.create(charge);
        expect(payment).toMatchObject({ status: 'succeeded', qr_code_id: null, expires_at: null, card: { last4: '4242', brand: 'visa' } });
      });
  });

  for (const [token, code] of [
    ['tok_declined', 'card_declined'],
    ['tok_insufficient_funds', 'insufficient_funds'],
  ] as const) {
    it(`reports ${token} as 402 ${code} (PaymentDeclinedError)`, async () => {
      await pact
        .addInteraction()
        .given('a merchant exists')
        .uponReceiving(`a request to charge the sandbox token ${token}`)
        .withRequest('POST', '/Thai/v1/payments', (request) => request.headers(postHeaders).jsonBody({ token_id: token, amount: 89000, currency: 'THB' }))
        .willRespondWith(402, (response) => response.headers(jsonResponse).jsonBody(errorLike(code, 'payment_error')))
        .executeTest(async (mock) => {
          const error = await apiErrorFrom(sdkAgainst(mock).payments.create({ token_id: token, amount: 89000, currency: 'THB' }));
          expect(error).toBeInstanceOf(PaymentDeclinedError);
          expect(error).toMatchObject({ status: 402, code, type: 'payment_error' });
        });
    });
  }

  it('reports an unknown token as 400 invalid_token', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to charge an unknown card token')
      .withRequest('POST', '/Thai/v1/payments', (request) => request.headers(postHeaders).jsonBody({ token_id: 'tok_unknown', amount: 89000, currency: 'THB' }))
      .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_token', 'validation_error', 'token_id')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).payments.create({ token_id: 'tok_unknown', amount: 89000, currency: 'THB' }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 400, code: 'invalid_token' });
      });
  });
});
