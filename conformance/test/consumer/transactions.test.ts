import { ValidationError, type TransactionType } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { authorized, errorLike, jsonResponse, listOf, transactionLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

describe('transactions.list', () => {
  it('pages through refund transactions (negative amounts) with limit, offset and total', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a payment history', { succeeded: 3, refunded: 3 })
      .uponReceiving('a request for the first page of refund transactions, two per page')
      .withRequest('GET', '/Thai/v1/transactions', (request) => request.headers(authorized).query({ type: 'refund', limit: '2', offset: '0' }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('transactions', transactionLike('refund', 'succeeded', -5000), { total: 3, limit: 2, offset: 0 })),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).transactions.list({ type: 'refund', limit: 2, offset: 0 }).page();
        expect(page).toMatchObject({ total: 3, limit: 2, offset: 0, hasMore: true });
        expect(page.data[0]).toMatchObject({ type: 'refund', amount: -5000 });
      });
  });

  it('filters payment transactions by status', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a payment history', { pending: 2, succeeded: 1 })
      .uponReceiving('a request for pending payment transactions')
      .withRequest('GET', '/Thai/v1/transactions', (request) => request.headers(authorized).query({ status: 'pending', type: 'payment' }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('transactions', transactionLike('payment', 'pending', 10000), { total: 2, limit: 20, offset: 0 })),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).transactions.list({ status: 'pending', type: 'payment' }).page();
        expect(page.total).toBe(2);
      });
  });

  it('refuses an unknown type with 400 invalid_parameters', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request for transactions of an unknown type')
      .withRequest('GET', '/Thai/v1/transactions', (request) => request.headers(authorized).query({ type: 'withdrawal' }))
      .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_parameters', 'validation_error', 'type')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(
          sdkAgainst(mock)
            .transactions.list({ type: 'withdrawal' as TransactionType })
            .page(),
        );
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 400, code: 'invalid_parameters' });
      });
  });
});
