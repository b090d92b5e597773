import { PermissionError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, errorLike, fromState, idFromState, idempotencyKeyHeader, jsonRequest, jsonResponse } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();
const restrictedKey = 'rk_test_conformance_example_key';
/** The restricted key the provider state issued, in place of the merchant's own. */
const restricted = { Authorization: fromState('Bearer ${api_key}', `Bearer ${restrictedKey}`, '^Bearer rk_test_[A-Za-z0-9_-]+$') };

describe('restricted keys', () => {
  it('reports a refund by a point-of-sale key as 403 permission_denied (PermissionError)', async () => {
    await pact
      .addInteraction()
      .given('a restricted key and a succeeded payment exist', { permissions: 'qr_codes:write,payments:read', amount: 150000 })
      .uponReceiving('a refund by a key that may only make QR codes and read payments')
      .withRequest('POST', '/Thai/v1/refunds', (request) =>
        request.headers({ ...restricted, ...jsonRequest, ...idempotencyKeyHeader }).jsonBody({ payment_id: idFromState('payment_id'), amount: 50000 }),
      )
      .willRespondWith(403, (response) => response.headers(jsonResponse).jsonBody(errorLike('permission_denied', 'permission_error')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock, restrictedKey).refunds.create({ payment_id: EXAMPLE.paymentId, amount: 50000 }));
        expect(error).toBeInstanceOf(PermissionError);
        expect(error).toMatchObject({ status: 403, code: 'permission_denied', type: 'permission_error' });
      });
  });
});
