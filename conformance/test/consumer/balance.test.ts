import { NotFoundError, PaymentDeclinedError, ValidationError, type WithdrawalStatus } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import {
  apiPath,
  authorized,
  balanceTransactionLike,
  EXAMPLE,
  errorLike,
  idFromState,
  jsonResponse,
  listOf,
  postHeaders,
  withdrawalLike,
} from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

describe('balance.retrieve', () => {
  it('reads the balance', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000, withdrawn: 50000 })
      .uponReceiving('a request for the balance')
      .withRequest('GET', '/Thai/v1/balance', (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody({ available: 100000, pending: 0, currency: 'THB' }))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).balance.retrieve()).toEqual({ available: 100000, pending: 0, currency: 'THB' });
      });
  });
});

describe('balance.listTransactions', () => {
  it('pages through the ledger filtered by type', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000 })
      .uponReceiving('a request for payment entries of the ledger')
      .withRequest('GET', '/Thai/v1/balance/transactions', (request) => request.headers(authorized).query({ type: 'payment', limit: '10', offset: '0' }))
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody(
            listOf('balance_transactions', balanceTransactionLike('payment', 150000, 'payment', EXAMPLE.paymentId), { total: 1, limit: 10, offset: 0 }),
          ),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).balance.listTransactions({ type: 'payment', limit: 10, offset: 0 }).page();
        expect(page).toMatchObject({ total: 1, hasMore: false });
        expect(page.data[0]).toMatchObject({ type: 'payment', amount: 150000, net: 150000 });
      });
  });
});

describe('withdrawals.create', () => {
  it('withdraws from the available balance', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000 })
      .uponReceiving('a request to withdraw 1,000.00 THB')
      .withRequest('POST', '/Thai/v1/withdrawals', (request) => request.headers(postHeaders).jsonBody({ amount: 100000, description: 'Weekly payout' }))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(withdrawalLike(100000, 'pending', 'Weekly payout')))
      .executeTest(async (mock) => {
        const withdrawal = await sdkAgainst(mock).withdrawals.create({ amount: 100000, description: 'Weekly payout' });
        expect(withdrawal).toMatchObject({ status: 'pending', destination: { account_last4: '7890' } });
      });
  });

  it('refuses more than the available balance with 402 insufficient_funds', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000 })
      .uponReceiving('a request to withdraw more than the available balance')
      .withRequest('POST', '/Thai/v1/withdrawals', (request) => request.headers(postHeaders).jsonBody({ amount: 150001 }))
      .willRespondWith(402, (response) => response.headers(jsonResponse).jsonBody(errorLike('insufficient_funds', 'payment_error', 'amount')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).withdrawals.create({ amount: 150001 }));
        expect(error).toBeInstanceOf(PaymentDeclinedError);
        expect(error).toMatchObject({ status: 402, code: 'insufficient_funds' });
      });
  });

  it('refuses less than 1 THB with 422 invalid_amount', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000 })
      .uponReceiving('a request to withdraw 99 satang')
      .withRequest('POST', '/Thai/v1/withdrawals', (request) => request.headers(postHeaders).jsonBody({ amount: 99 }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_amount', 'validation_error', 'amount')))
      .executeTest(async (mock) => {
        expect(await apiErrorFrom(sdkAgainst(mock).withdrawals.create({ amount: 99 }))).toMatchObject({ status: 422, code: 'invalid_amount' });
      });
  });

  it('refuses without a payout account with 422 payout_account_missing', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000, payout_account: false })
      .uponReceiving('a request to withdraw without a payout account')
      .withRequest('POST', '/Thai/v1/withdrawals', (request) => request.headers(postHeaders).jsonBody({ amount: 10000 }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('payout_account_missing', 'validation_error')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).withdrawals.create({ amount: 10000 }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ code: 'payout_account_missing' });
      });
  });
});

describe('withdrawals.retrieve and list', () => {
  it('reads a withdrawal the sandbox rail paid out', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000, withdrawn: 50000, description: 'Weekly payout' })
      .uponReceiving('a request to retrieve a paid-out withdrawal')
      .withRequest('GET', apiPath`/withdrawals/${'withdrawal_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(withdrawalLike(50000, 'succeeded', 'Weekly payout')))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).withdrawals.retrieve(EXAMPLE.withdrawalId)).toMatchObject({ withdrawal_id: EXAMPLE.withdrawalId, status: 'succeeded' });
      });
  });

  it('lists succeeded withdrawals', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000, withdrawn: 50000 })
      .uponReceiving('a request for succeeded withdrawals')
      .withRequest('GET', '/Thai/v1/withdrawals', (request) => request.headers(authorized).query({ status: 'succeeded' }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('withdrawals', withdrawalLike(50000, 'succeeded', null), { total: 1, limit: 20, offset: 0 })),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).withdrawals.list({ status: 'succeeded' }).page();
        expect(page).toMatchObject({ total: 1 });
      });
  });

  it('refuses an unknown status with 400 invalid_parameters', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request for withdrawals in an unknown state')
      .withRequest('GET', '/Thai/v1/withdrawals', (request) => request.headers(authorized).query({ status: 'paid' }))
      .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_parameters', 'validation_error', 'status')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(
          sdkAgainst(mock)
            .withdrawals.list({ status: 'paid' as WithdrawalStatus })
            .page(),
        );
        expect(error).toBeInstanceOf(ValidationError);
      });
  });

  it('reports an unknown withdrawal as 404 withdrawal_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve a withdrawal that does not exist')
      .withRequest('GET', '/Thai/v1/withdrawals/wd_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('withdrawal_not_found', 'not_found')))
      .executeTest(async (mock) => {
        expect(await apiErrorFrom(sdkAgainst(mock).withdrawals.retrieve('wd_doesnotexist0000000000000'))).toBeInstanceOf(NotFoundError);
      });
  });
});

describe('refunds.create against the balance', () => {
  it('refuses a refund larger than the balance with 402 insufficient_funds', async () => {
    await pact
      .addInteraction()
      .given('the merchant has a balance', { amount: 150000, withdrawn: 100000 })
      .uponReceiving('a request to refund more than the balance holds')
      .withRequest('POST', '/Thai/v1/refunds', (request) => request.headers(postHeaders).jsonBody({ payment_id: idFromState('payment_id'), amount: 60000 }))
      .willRespondWith(402, (response) => response.headers(jsonResponse).jsonBody(errorLike('insufficient_funds', 'payment_error', 'amount')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).refunds.create({ payment_id: EXAMPLE.paymentId, amount: 60000 }));
        expect(error).toMatchObject({ status: 402, code: 'insufficient_funds' });
      });
  });
});
