import { IdempotencyConflictError } from '@payment-qr/sdk';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { authorized, errorLike, jsonRequest, jsonResponse, qrCodeLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();
const idempotencyKey = 'order-1001';
const firstRequest = { amount: 15000, currency: 'THB', reference: 'ORDER-1001' } as const;
const headers = { ...authorized, ...jsonRequest, 'Idempotency-Key': idempotencyKey };

describe('Idempotency-Key', () => {
  it('replays the stored answer, marked Idempotent-Replayed, when a request is retried', async () => {
    await pact
      .addInteraction()
      .given('a QR code was created with an idempotency key', { idempotency_key: idempotencyKey, request: firstRequest })
      .uponReceiving('a retry of a QR code request with the same idempotency key and body')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) => request.headers(headers).jsonBody(firstRequest))
      .willRespondWith(200, (response) =>
        response
          .headers({ ...jsonResponse, 'Idempotent-Replayed': MatchersV3.equal('true') })
          .jsonBody(qrCodeLike({ amount: 15000, reference: 'ORDER-1001', client_name: null, client_bank_name: null, metadata: {} })),
      )
      .executeTest(async (mock) => {
        const qrCode = await sdkAgainst(mock).qrCodes.create(firstRequest, { idempotencyKey });
        expect(qrCode).toMatchObject({ amount: 15000, reference: 'ORDER-1001' });
      });
  });

  it('refuses the same key with a different body with 409 idempotency_key_reused', async () => {
    const changed = { ...firstRequest, amount: 20000 };
    await pact
      .addInteraction()
      .given('a QR code was created with an idempotency key', { idempotency_key: idempotencyKey, request: firstRequest })
      .uponReceiving('a QR code request reusing an idempotency key with a different amount')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) => request.headers(headers).jsonBody(changed))
      .willRespondWith(409, (response) => response.headers(jsonResponse).jsonBody(errorLike('idempotency_key_reused', 'idempotency_error', 'Idempotency-Key')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).qrCodes.create(changed, { idempotencyKey }));
        expect(error).toBeInstanceOf(IdempotencyConflictError);
        expect(error).toMatchObject({ status: 409, code: 'idempotency_key_reused' });
      });
  });
});
