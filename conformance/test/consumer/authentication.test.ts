import { AuthenticationError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { errorLike, jsonResponse } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();
const unknownKey = 'sk_test_unknown0000000000000000';

describe('authentication', () => {
  it('reports an unknown API key as 401 authentication_failed (AuthenticationError)', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request with an unknown API key')
      .withRequest('GET', '/Thai/v1/transactions', (request) => request.headers({ Authorization: `Bearer ${unknownKey}` }))
      .willRespondWith(401, (response) => response.headers(jsonResponse).jsonBody(errorLike('authentication_failed', 'authentication_error')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock, unknownKey).transactions.list().page());
        expect(error).toBeInstanceOf(AuthenticationError);
        expect(error).toMatchObject({ status: 401, code: 'authentication_failed', type: 'authentication_error' });
      });
  });
});
