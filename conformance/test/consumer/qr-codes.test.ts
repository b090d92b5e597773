import { ValidationError } from '@payment-qr/sdk';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, errorLike, imagePath, jsonResponse, postHeaders, qrCodeLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

const fullRequest = {
  amount: 150000,
  currency: 'THB',
  reference: 'INV-2026-00042',
  expiry_minutes: 15,
  client_name: 'Somchai Jaidee',
  client_bank_name: 'Kasikornbank',
  metadata: { order_id: 'ORD-88213', customer_id: 'cus_4821' },
  return_url: 'https://shop.example.com/orders/88213/paid',
} as const;

describe('qrCodes.create', () => {
  it('generates a QR code and its pending payment', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to generate a QR code with reference, client details, metadata and a return URL')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) => request.headers(postHeaders).jsonBody(fullRequest))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(
          qrCodeLike({
            amount: 150000,
            reference: 'INV-2026-00042',
            client_name: 'Somchai Jaidee',
            client_bank_name: 'Kasikornbank',
            metadata: fullRequest.metadata,
            return_url: fullRequest.return_url,
          }),
        ),
      )
      .executeTest(async (mock) => {
        const qrCode = await sdkAgainst(mock).qrCodes.create(fullRequest);
        expect(qrCode).toMatchObject({ status: 'pending', amount: 150000, currency: 'THB', payment_id: EXAMPLE.paymentId });
        expect(qrCode.qr_data).toMatch(/^000201010212/);
        expect(qrCode.checkout_url).toBe(`http://127.0.0.1:3000/Thai/pay/${qrCode.qr_code_id}`);
        expect(qrCode.return_url).toBe(fullRequest.return_url);
      });
  });

  it('refuses an amount below 1 THB with 422 invalid_amount', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to generate a QR code for 50 satang')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) => request.headers(postHeaders).jsonBody({ amount: 50, currency: 'THB' }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_amount', 'validation_error', 'amount')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).qrCodes.create({ amount: 50, currency: 'THB' }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'invalid_amount', param: 'amount' });
      });
  });

  it('refuses a currency other than THB with 422 invalid_currency', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to generate a QR code in USD')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) => request.headers(postHeaders).jsonBody({ amount: 15000, currency: 'USD' }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_currency', 'validation_error', 'currency')))
      .executeTest(async (mock) => {
        // The SDK's types allow only THB; a JavaScript caller can still send anything.
        const error = await apiErrorFrom(sdkAgainst(mock).qrCodes.create({ amount: 15000, currency: 'USD' as 'THB' }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'invalid_currency' });
      });
  });

  it('refuses a reference over 35 characters with 400 invalid_request', async () => {
    const reference = 'R'.repeat(36);
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to generate a QR code with a 36-character reference')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) => request.headers(postHeaders).jsonBody({ amount: 15000, currency: 'THB', reference }))
      .willRespondWith(400, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_request', 'validation_error', 'reference')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).qrCodes.create({ amount: 15000, currency: 'THB', reference }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 400, code: 'invalid_request', param: 'reference' });
      });
  });
});

describe('qrCodes.imageUrl', () => {
  it('points at the public SVG image of a pending QR code', async () => {
    await pact
      .addInteraction()
      .given('a pending payment exists', { amount: 150000 })
      .uponReceiving('a request for the SVG image of a QR code, without an API key')
      .withRequest('GET', imagePath`/qr-codes/${'qr_code_id'}/image`, (request) => request.query({ format: 'svg', size: '400' }))
      .willRespondWith(200, (response) =>
        response.headers({
          'Content-Type': MatchersV3.regex('^image/svg\\+xml(;.*)?$', 'image/svg+xml; charset=utf-8'),
          'Request-Id': jsonResponse['Request-Id'],
        }),
      )
      .executeTest(async (mock) => {
        const url = sdkAgainst(mock).qrCodes.imageUrl(EXAMPLE.qrCodeId, { format: 'svg', size: 400 });
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      });
  });

  it('answers 410 qr_code_expired once the payment expired', async () => {
    await pact
      .addInteraction()
      .given('an expired payment exists', { amount: 25000 })
      .uponReceiving('a request for the image of an expired QR code')
      .withRequest('GET', imagePath`/qr-codes/${'qr_code_id'}/image`)
      .willRespondWith(410, (response) => response.headers(jsonResponse).jsonBody(errorLike('qr_code_expired', 'not_found')))
      .executeTest(async (mock) => {
        const response = await fetch(sdkAgainst(mock).qrCodes.imageUrl(EXAMPLE.qrCodeId));
        expect(response.status).toBe(410);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('qr_code_expired');
      });
  });
});
