import { NotFoundError, ValidationError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, apiPath, authorized, errorLike, jsonResponse, listOf, paymentLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

describe('payments.retrieve', () => {
  it('reads a pending QR payment', async () => {
    await pact
      .addInteraction()
      .given('a pending payment exists', { amount: 150000, reference: 'INV-2026-00042' })
      .uponReceiving('a request to retrieve a pending payment')
      .withRequest('GET', apiPath`/payments/${'payment_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody(paymentLike({ status: 'pending', amount: 150000, reference: 'INV-2026-00042', metadata: { order_id: 'ORD-88213' } })),
      )
      .executeTest(async (mock) => {
        const payment = await sdkAgainst(mock).payments.retrieve(EXAMPLE.paymentId);
        expect(payment).toMatchObject({ payment_id: EXAMPLE.paymentId, status: 'pending', amount: 150000, refunded_amount: 0 });
      });
  });

  it('reads a partly refunded payment, still succeeded', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment exists', { amount: 150000, refunded_amount: 50000 })
      .uponReceiving('a request to retrieve a partly refunded payment')
      .withRequest('GET', apiPath`/payments/${'payment_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody(paymentLike({ status: 'succeeded', amount: 150000, refunded_amount: 50000, completed: true, metadata: { order_id: 'ORD-88213' } })),
      )
      .executeTest(async (mock) => {
        const payment = await sdkAgainst(mock).payments.retrieve(EXAMPLE.paymentId);
        expect(payment).toMatchObject({ status: 'succeeded', refunded_amount: 50000 });
      });
  });

  it('reports an unknown payment as NotFoundError payment_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve a payment that does not exist')
      .withRequest('GET', '/Thai/v1/payments/pay_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('payment_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).payments.retrieve('pay_doesnotexist0000000000000'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ status: 404, code: 'payment_not_found', type: 'not_found' });
      });
  });
});

describe('payments.list', () => {
  it('pages through succeeded payments with limit, offset and total', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a payment history', { pending: 2, succeeded: 3 })
      .uponReceiving('a request for the second page of succeeded payments, two per page')
      .withRequest('GET', '/Thai/v1/payments', (request) => request.headers(authorized).query({ status: 'succeeded', limit: '2', offset: '2' }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(
          listOf('payments', paymentLike({ status: 'succeeded', amount: 20000, completed: true, metadata: { order_id: 'ORD-88213' } }), {
            total: 3,
            limit: 2,
            offset: 2,
          }),
        ),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).payments.list({ status: 'succeeded', limit: 2, offset: 2 }).page();
        expect(page).toMatchObject({ total: 3, limit: 2, offset: 2, hasMore: false });
        expect(page.data.every((payment) => payment.status === 'succeeded')).toBe(true);
      });
  });

  it('filters by a creation date range', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('the merchant has a payment history', { pending: 1 })
      .uponReceiving('a request for payments created between two dates')
      .withRequest('GET', '/Thai/v1/payments', (request) =>
        request.headers(authorized).query({ start_date: '2000-01-01', end_date: '2999-12-31T23:59:59.999Z', limit: '20' }),
      )
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody(
            listOf('payments', paymentLike({ status: 'pending', amount: 10000, metadata: { order_id: 'ORD-88213' } }), { total: 1, limit: 20, offset: 0 }),
          ),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).payments.list({ start_date: '2000-01-01', end_date: '2999-12-31T23:59:59.999Z', limit: 20 }).page();
        expect(page.total).toBe(1);
      });
  });

  it('refuses a limit above 100 with 400 invalid_parameters', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request for payments with limit 500')
      .withRequest('GET', '/Thai/v1/payments', (request) => request.headers(authorized).query({ limit: '500' }))
      .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_parameters', 'validation_error', 'limit')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).payments.list({ limit: 500 }).page());
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 400, code: 'invalid_parameters', param: 'limit' });
      });
  });
});
