import { ValidationError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, apiPath, authorized, errorLike, idempotencyKeyHeader, jsonRequest, jsonResponse, paymentLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();
const postHeaders = { ...authorized, ...idempotencyKeyHeader };
const metadata = { order_id: 'ORD-88213' };

describe('testHelpers (the sandbox bank)', () => {
  it('completes a pending payment, filling the payer account the bank reports', async () => {
    await pact
      .addInteraction()
      .given('a pending payment exists', { amount: 150000 })
      .uponReceiving('a request to complete a pending payment with the payer account')
      .withRequest('POST', apiPath`/test/payments/${'payment_id'}/succeed`, (request) =>
        request.headers({ ...postHeaders, ...jsonRequest }).jsonBody({ client_bank_account: '123-4-56789-0' }),
      )
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody(paymentLike({ status: 'succeeded', amount: 150000, completed: true, client_bank_account: '123-4-56789-0', metadata })),
      )
      .executeTest(async (mock) => {
        const payment = await sdkAgainst(mock).testHelpers.succeed(EXAMPLE.paymentId, { client_bank_account: '123-4-56789-0' });
        expect(payment).toMatchObject({ status: 'succeeded', client_bank_account: '123-4-56789-0' });
      });
  });

  it('fails a pending payment', async () => {
    await pact
      .addInteraction()
      .given('a pending payment exists', { amount: 42000 })
      .uponReceiving('a request to fail a pending payment')
      .withRequest('POST', apiPath`/test/payments/${'payment_id'}/fail`, (request) => request.headers(postHeaders))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(paymentLike({ status: 'failed', amount: 42000, metadata })))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).testHelpers.fail(EXAMPLE.paymentId)).toMatchObject({ status: 'failed', completed_at: null });
      });
  });

  it('expires a pending payment', async () => {
    await pact
      .addInteraction()
      .given('a pending payment exists', { amount: 25000 })
      .uponReceiving('a request to expire a pending payment')
      .withRequest('POST', apiPath`/test/payments/${'payment_id'}/expire`, (request) => request.headers(postHeaders))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(paymentLike({ status: 'expired', amount: 25000, metadata })))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).testHelpers.expire(EXAMPLE.paymentId)).toMatchObject({ status: 'expired' });
      });
  });

  it('refuses to complete a payment twice with 422 payment_not_pending', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment exists', { amount: 150000 })
      .uponReceiving('a request to complete a payment that already succeeded')
      .withRequest('POST', apiPath`/test/payments/${'payment_id'}/succeed`, (request) => request.headers(postHeaders))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('payment_not_pending', 'validation_error')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).testHelpers.succeed(EXAMPLE.paymentId));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'payment_not_pending' });
      });
  });
});
