import { NotFoundError, ValidationError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, apiPath, authorized, errorLike, idFromState, jsonResponse, postHeaders, refundLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

describe('refunds.create', () => {
  it('refunds part of a succeeded payment', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment exists', { amount: 150000 })
      .uponReceiving('a request to refund 500.00 THB of a succeeded payment')
      .withRequest('POST', '/Thai/v1/refunds', (request) =>
        request.headers(postHeaders).jsonBody({ payment_id: idFromState('payment_id'), amount: 50000, reason: 'Customer returned one item' }),
      )
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(refundLike(50000, 'Customer returned one item')))
      .executeTest(async (mock) => {
        const refund = await sdkAgainst(mock).refunds.create({ payment_id: EXAMPLE.paymentId, amount: 50000, reason: 'Customer returned one item' });
        expect(refund).toMatchObject({ payment_id: EXAMPLE.paymentId, amount: 50000, status: 'succeeded' });
      });
  });

  it('refunds everything still refundable when no amount is given', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment exists', { amount: 150000, refunded_amount: 50000 })
      .uponReceiving('a request to refund the rest of a partly refunded payment')
      .withRequest('POST', '/Thai/v1/refunds', (request) => request.headers(postHeaders).jsonBody({ payment_id: idFromState('payment_id') }))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(refundLike(100000, null)))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).refunds.create({ payment_id: EXAMPLE.paymentId })).toMatchObject({ amount: 100000, reason: null });
      });
  });

  it('refuses to refund a pending payment with 422 payment_not_refundable', async () => {
    await pact
      .addInteraction()
      .given('a pending payment exists', { amount: 150000 })
      .uponReceiving('a request to refund a pending payment')
      .withRequest('POST', '/Thai/v1/refunds', (request) => request.headers(postHeaders).jsonBody({ payment_id: idFromState('payment_id') }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('payment_not_refundable', 'validation_error')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).refunds.create({ payment_id: EXAMPLE.paymentId }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'payment_not_refundable' });
      });
  });

  it('refuses more than the refundable amount with 422 invalid_amount', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment exists', { amount: 150000, refunded_amount: 50000 })
      .uponReceiving('a request to refund more than is still refundable')
      .withRequest('POST', '/Thai/v1/refunds', (request) => request.headers(postHeaders).jsonBody({ payment_id: idFromState('payment_id'), amount: 100001 }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_amount', 'validation_error', 'amount')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).refunds.create({ payment_id: EXAMPLE.paymentId, amount: 100001 }));
        expect(error).toMatchObject({ status: 422, code: 'invalid_amount' });
      });
  });

  it('reports an unknown payment as 404 payment_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to refund a payment that does not exist')
      .withRequest('POST', '/Thai/v1/refunds', (request) => request.headers(postHeaders).jsonBody({ payment_id: 'pay_doesnotexist0000000000000' }))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('payment_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).refunds.create({ payment_id: 'pay_doesnotexist0000000000000' }));
        expect(error).toBeInstanceOf(NotFoundError);
      });
  });
});

describe('refunds.retrieve', () => {
  it('reads a refund', async () => {
    await pact
      .addInteraction()
      .given('a refund exists', { amount: 150000, refund_amount: 50000, reason: 'Customer returned one item' })
      .uponReceiving('a request to retrieve a refund')
      .withRequest('GET', apiPath`/refunds/${'refund_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(refundLike(50000, 'Customer returned one item')))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).refunds.retrieve(EXAMPLE.refundId)).toMatchObject({ refund_id: EXAMPLE.refundId, amount: 50000 });
      });
  });

  it('reports an unknown refund as 404 refund_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve a refund that does not exist')
      .withRequest('GET', '/Thai/v1/refunds/rfd_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('refund_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).refunds.retrieve('rfd_doesnotexist0000000000000'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ code: 'refund_not_found' });
      });
  });
});
