import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE,
  apiPath,
  authorized,
  idempotencyKeyHeader,
  errorLike,
  fromState,
  id,
  idFromState,
  jsonResponse,
  postHeaders,
  timestamp,
} from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const { equal, integer, regex } = MatchersV3;
const pact = newPact();

/** A slip's mini QR as the sandbox bank writes it (tag 00: API id, sending bank, transaction reference; then TH and a CRC). */
const SLIP_PAYLOAD = '004100060000010103014022SANDBOX0123456789ABCDEFGHIJ5102TH9104ABCD';
const slipPayload = () => fromState('${slip_payload}', SLIP_PAYLOAD, '^00\\d{2}0006000001.+5102TH9104[0-9A-F]{4}$');

const slipVerificationLike = (status: string) => ({
  slip_verification_id: id('slipVerification', EXAMPLE.slipVerificationId),
  status: equal(status),
  trans_ref: regex('^\\S+$', 'SANDBOX0123456789ABCDEFGHIJ'),
  sending_bank: regex('^\\d{3}$', '014'),
  amount: integer(150000),
  paid_at: timestamp(),
  payment_id: idFromState('payment_id'),
  first_verified_at: timestamp(),
  created_at: timestamp(),
});

describe('slipVerifications', () => {
  it("verifies the slip of the merchant's own succeeded payment", async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment has a slip', { amount: 150000 })
      .uponReceiving('a request to verify the slip of a succeeded payment')
      .withRequest('POST', apiPath`/slip-verifications`, (request) =>
        request.headers(postHeaders).jsonBody({ payload: slipPayload(), payment_id: idFromState('payment_id'), amount: 150000 }),
      )
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(slipVerificationLike('verified')))
      .executeTest(async (mock) => {
        const verification = await sdkAgainst(mock).slipVerifications.create({ payload: SLIP_PAYLOAD, payment_id: EXAMPLE.paymentId, amount: 150000 });
        expect(verification).toMatchObject({ status: 'verified', amount: 150000, payment_id: EXAMPLE.paymentId });
      });
  });

  it('reads a verification back', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment has a slip', { amount: 150000, verified: true })
      .uponReceiving('a request for a slip verification')
      .withRequest('GET', apiPath`/slip-verifications/${'slip_verification_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(slipVerificationLike('verified')))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).slipVerifications.retrieve(EXAMPLE.slipVerificationId)).toMatchObject({ status: 'verified' });
      });
  });

  it('gets the slip of a succeeded test payment from the test helper', async () => {
    await pact
      .addInteraction()
      .given('a succeeded payment has a slip', { amount: 150000 })
      .uponReceiving('a request for the slip of a succeeded test payment')
      .withRequest('POST', apiPath`/test/payments/${'payment_id'}/slip`, (request) => request.headers({ ...authorized, ...idempotencyKeyHeader }))
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody({ payload: regex('^00\\d{2}0006000001.+5102TH9104[0-9A-F]{4}$', SLIP_PAYLOAD), image: regex('^[A-Za-z0-9+/]+=*$', 'iVBORw0KGgo=') }),
      )
      .executeTest(async (mock) => {
        expect((await sdkAgainst(mock).testHelpers.slip(EXAMPLE.paymentId)).payload).toBe(SLIP_PAYLOAD);
      });
  });

  it('refuses a payload that is no slip QR with 422 invalid_slip', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to verify a payload that is no slip QR')
      .withRequest('POST', apiPath`/slip-verifications`, (request) => request.headers(postHeaders).jsonBody({ payload: 'not a slip' }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_slip', 'validation_error')))
      .executeTest(async (mock) => {
        expect(await apiErrorFrom(sdkAgainst(mock).slipVerifications.create({ payload: 'not a slip' }))).toMatchObject({ status: 422, code: 'invalid_slip' });
      });
  });
});
