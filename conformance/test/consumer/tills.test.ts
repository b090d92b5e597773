import { NotFoundError, ValidationError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE,
  apiPath,
  authorized,
  errorLike,
  idFromState,
  jsonResponse,
  listOf,
  paymentLike,
  postHeaders,
  qrCodeLike,
  tillLike,
} from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();
const name = 'Front counter';

describe('tills', () => {
  it('creates a till', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to create a till')
      .withRequest('POST', '/Thai/v1/tills', (request) => request.headers(postHeaders).jsonBody({ name }))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody({ ...tillLike(name, 'active'), till_id: idFromState('till_id') }))
      .executeTest(async (mock) => {
        const till = await sdkAgainst(mock).tills.create({ name });
        expect(till).toMatchObject({ name, status: 'active' });
        expect(till.static_qr.qr_data.startsWith('000201010211')).toBe(true);
      });
  });

  it('lists tills newest first', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('a till exists', { name })
      .uponReceiving('a request to list tills')
      .withRequest('GET', '/Thai/v1/tills', (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('tills', tillLike(name, 'active'), { total: 1, limit: 20, offset: 0 })),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).tills.list().page();
        expect(page).toMatchObject({ total: 1, hasMore: false });
        expect(page.data[0]).toMatchObject({ name, status: 'active' });
      });
  });

  it('retrieves a till', async () => {
    await pact
      .addInteraction()
      .given('a till exists', { name })
      .uponReceiving('a request to retrieve a till')
      .withRequest('GET', apiPath`/tills/${'till_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(tillLike(name, 'active')))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).tills.retrieve(EXAMPLE.tillId)).toMatchObject({ till_id: EXAMPLE.tillId, name });
      });
  });

  it('reports an unknown till as NotFoundError till_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve a till that does not exist')
      .withRequest('GET', '/Thai/v1/tills/till_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('till_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).tills.retrieve('till_doesnotexist0000000000000'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ status: 404, code: 'till_not_found' });
      });
  });

  it('closes a till', async () => {
    await pact
      .addInteraction()
      .given('a till exists', { name })
      .uponReceiving('a request to close a till')
      .withRequest('POST', apiPath`/tills/${'till_id'}/close`, (request) =>
        request.headers({ ...authorized, 'Idempotency-Key': postHeaders['Idempotency-Key'] }),
      )
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(tillLike(name, 'closed')))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).tills.close(EXAMPLE.tillId)).toMatchObject({ status: 'closed' });
      });
  });

  it("rolls a till's display URL", async () => {
    await pact
      .addInteraction()
      .given('a till exists', { name })
      .uponReceiving("a request to roll a till's display URL")
      .withRequest('POST', apiPath`/tills/${'till_id'}/display-url/roll`, (request) =>
        request.headers({ ...authorized, 'Idempotency-Key': postHeaders['Idempotency-Key'] }),
      )
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(tillLike(name, 'active')))
      .executeTest(async (mock) => {
        expect((await sdkAgainst(mock).tills.rollDisplayUrl(EXAMPLE.tillId)).display_url).toContain('/Thai/tills/display/');
      });
  });

  it('generates a QR code at a till: the QR code carries its till_id', async () => {
    await pact
      .addInteraction()
      .given('a till exists', { name })
      .uponReceiving('a request to generate a QR code at a till')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) =>
        request.headers(postHeaders).jsonBody({ amount: 15000, currency: 'THB', till_id: idFromState('till_id') }),
      )
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody(qrCodeLike({ amount: 15000, reference: null, client_name: null, client_bank_name: null, metadata: {}, till: true })),
      )
      .executeTest(async (mock) => {
        const qrCode = await sdkAgainst(mock).qrCodes.create({ amount: 15000, currency: 'THB', till_id: EXAMPLE.tillId });
        expect(qrCode.till_id).toBe(EXAMPLE.tillId);
      });
  });

  it('refuses a QR code at a closed till with ValidationError till_unavailable', async () => {
    await pact
      .addInteraction()
      .given('a closed till exists', { name })
      .uponReceiving('a request to generate a QR code at a closed till')
      .withRequest('POST', '/Thai/v1/qr-codes', (request) =>
        request.headers(postHeaders).jsonBody({ amount: 15000, currency: 'THB', till_id: idFromState('till_id') }),
      )
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('till_unavailable', 'validation_error', 'till_id')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).qrCodes.create({ amount: 15000, currency: 'THB', till_id: EXAMPLE.tillId }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'till_unavailable', param: 'till_id' });
      });
  });

  it("pays a test till's static QR: a succeeded payment of the till", async () => {
    await pact
      .addInteraction()
      .given('a till exists', { name })
      .uponReceiving("a request to pay a test till's static QR")
      .withRequest('POST', apiPath`/test/tills/${'till_id'}/payments`, (request) => request.headers(postHeaders).jsonBody({ amount: 15000 }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(paymentLike({ status: 'succeeded', amount: 15000, completed: true, till: 'static' })),
      )
      .executeTest(async (mock) => {
        const payment = await sdkAgainst(mock).testHelpers.payTill(EXAMPLE.tillId, { amount: 15000 });
        expect(payment).toMatchObject({ status: 'succeeded', till_id: EXAMPLE.tillId, reference: null, expires_at: null });
      });
  });
});
