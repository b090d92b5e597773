// Typed errors from the real server: class by status, and every field the envelope carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  IdempotencyConflictError,
  NotFoundError,
  PaymentDeclinedError,
  PaymentQrClient,
  PaymentQrError,
  PermissionError,
  ValidationError,
  type CreateQrCodeParams,
} from '../src/index.js';
import { errorFromResponse } from '../src/errors.js';
import { clientForNewMerchant, startApi, type TestServer } from './support/api.js';

let server: TestServer;
let client: PaymentQrClient;
beforeAll(async () => {
  server = await startApi();
  client = await clientForNewMerchant(server);
});
afterAll(async () => {
  await server?.stop();
});

/** The error a call rejects with (fails the test if it resolves). */
async function errorOf(call: Promise<unknown>): Promise<PaymentQrError> {
  const error: unknown = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentQrError);
  return error as PaymentQrError;
}

describe('errors from the API', () => {
  it('401: AuthenticationError for an unknown key', async () => {
    const stranger = new PaymentQrClient({ apiKey: 'sk_test_unknownunknownunknown', baseUrl: server.url });
    const error = await errorOf(stranger.payments.list().page());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'authentication_failed', type: 'authentication_error', name: 'AuthenticationError' });
    expect(error.requestId).toMatch(/^req_/);
    expect(error.raw).toMatchObject({ error: { code: 'authentication_failed', request_id: error.requestId } });
  });

  it('403: PermissionError naming the permission a restricted key lacks; what it holds still works', async () => {
    const merchant = await server.merchant();
    const pos = new PaymentQrClient({ apiKey: await server.apiKey(merchant.id, ['qr_codes:write', 'payments:read']), baseUrl: server.url });
    const qrCode = await pos.qrCodes.create({ amount: 1_000, currency: 'THB' });
    expect((await pos.payments.retrieve(qrCode.payment_id)).status).toBe('pending');
    const error = await errorOf(pos.refunds.create({ payment_id: qrCode.payment_id, amount: 500 }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'permission_denied', type: 'permission_error', name: 'PermissionError' });
    expect(error.message).toContain("'refunds:write'");
    expect(error.requestId).toMatch(/^req_/);
    expect(await errorOf(pos.balance.retrieve())).toBeInstanceOf(PermissionError);
  });

  it('404: NotFoundError naming the thing, for another merchant\u2019s id as for an unknown one', async () => {
    const other = await clientForNewMerchant(server);
    const theirs = await other.qrCodes.create({ amount: 1_000, currency: 'THB' });
    for (const id of [theirs.payment_id, 'pay_unknown']) {
      const error = await errorOf(client.payments.retrieve(id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'payment_not_found', type: 'not_found' });
    }
    expect(await errorOf(client.refunds.retrieve('rfd_unknown'))).toMatchObject({ status: 404, code: 'refund_not_found' });
    expect(await errorOf(client.testHelpers.succeed('pay_unknown'))).toMatchObject({ status: 404, code: 'payment_not_found' });
  });

  it('400: ValidationError with the offending param, for a body field and for a query parameter', async () => {
    const body = await errorOf(client.qrCodes.create({ amount: 1_000, currency: 'THB', expiry_minutes: 0 }));
    expect(body).toBeInstanceOf(ValidationError);
    expect(body).toMatchObject({ status: 400, code: 'invalid_request', type: 'validation_error', param: 'expiry_minutes' });

    const notInteger = await errorOf(client.qrCodes.create({ amount: 10.5, currency: 'THB' }));
    expect(notInteger).toMatchObject({ status: 400, code: 'invalid_request', param: 'amount' });

    const query = await errorOf(client.transactions.list().page({ limit: 101 }));
    expect(query).toMatchObject({ status: 400, code: 'invalid_parameters', param: 'limit' });
  });

  it('422: ValidationError for amounts, currencies and states', async () => {
    expect(await errorOf(client.qrCodes.create({ amount: 99, currency: 'THB' }))).toMatchObject({ status: 422, code: 'invalid_amount', param: 'amount' });
    const dollars = { amount: 1_000, currency: 'USD' } as unknown as CreateQrCodeParams; // does not compile otherwise
    const currency = await errorOf(client.qrCodes.create(dollars));
    expect(currency).toBeInstanceOf(ValidationError);
    expect(currency).toMatchObject({ status: 422, code: 'invalid_currency', param: 'currency' });

    const qrCode = await client.qrCodes.create({ amount: 1_000, currency: 'THB' });
    expect(await errorOf(client.refunds.create({ payment_id: qrCode.payment_id }))).toMatchObject({ status: 422, code: 'payment_not_refundable' });
    await client.testHelpers.fail(qrCode.payment_id);
    expect(await errorOf(client.testHelpers.succeed(qrCode.payment_id))).toMatchObject({ status: 422, code: 'payment_not_pending', type: 'validation_error' });
  });

  it('402: PaymentDeclinedError for a refused card, which is still recorded as failed', async () => {
    const merchant = await clientForNewMerchant(server);
    const declined = await errorOf(merchant.payments.create({ token_id: 'tok_declined', amount: 5_000, currency: 'THB' }));
    expect(declined).toBeInstanceOf(PaymentDeclinedError);
    expect(declined).toMatchObject({ status: 402, code: 'card_declined', type: 'payment_error' });
    const poor = await errorOf(merchant.payments.create({ token_id: 'tok_insufficient_funds', amount: 5_000, currency: 'THB' }));
    expect(poor).toMatchObject({ status: 402, code: 'insufficient_funds' });
    expect((await merchant.payments.list({ status: 'failed' }).page()).total).toBe(2);
  });

  it('409: IdempotencyConflictError when a key is reused for a different request, never retried', async () => {
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const first = await client.qrCodes.create({ amount: 1_000, currency: 'THB' }, { idempotencyKey });
    expect(await client.qrCodes.create({ amount: 1_000, currency: 'THB' }, { idempotencyKey })).toEqual(first); // a replay

    const error = await errorOf(client.qrCodes.create({ amount: 2_000, currency: 'THB' }, { idempotencyKey }));
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toMatchObject({ status: 409, code: 'idempotency_key_reused', type: 'idempotency_error', param: 'Idempotency-Key' });
  });

  it('an Idempotency-Key the API would refuse (empty, over 255 characters) is refused before sending', async () => {
    for (const idempotencyKey of ['', 'k'.repeat(256)]) {
      await expect(client.qrCodes.create({ amount: 1_000, currency: 'THB' }, { idempotencyKey })).rejects.toThrow(
        new TypeError('Request option idempotencyKey must be a string of 1 to 255 characters.'),
      );
    }
    expect(await client.qrCodes.create({ amount: 1_000, currency: 'THB' }, { idempotencyKey: 'k'.repeat(255) })).toMatchObject({ status: 'pending' });
  });
});

describe('errorFromResponse', () => {
  it('chooses the class by status', () => {
    const body = (code: string) => ({ error: { code, message: 'm', type: 'validation_error', request_id: 'req_body' } });
    expect(errorFromResponse(405, body('method_not_allowed'), null)).toBeInstanceOf(ValidationError);
    expect(errorFromResponse(413, body('payload_too_large'), null)).toBeInstanceOf(ValidationError);
    expect(errorFromResponse(408, { error: { code: 'request_timeout', message: 'm', type: 'api_error', request_id: 'req_body' } }, null)).toMatchObject({
      name: 'ApiError',
      code: 'request_timeout',
      status: 408,
    });
    expect(errorFromResponse(410, body('qr_code_expired'), null)).toBeInstanceOf(NotFoundError);
    expect(errorFromResponse(503, body('service_unavailable'), null)).toBeInstanceOf(ApiError);
    expect(errorFromResponse(418, body('internal_error'), null)).toBeInstanceOf(ApiError);
  });

  it('prefers the body\u2019s request_id, falls back to the Request-Id header, and keeps a foreign body raw', () => {
    const withBody = errorFromResponse(500, { error: { code: 'internal_error', message: 'm', type: 'api_error', request_id: 'req_body' } }, 'req_header');
    expect(withBody.requestId).toBe('req_body');
    const html = errorFromResponse(502, '<html>Bad gateway</html>', 'req_header');
    expect(html).toBeInstanceOf(ApiError);
    expect(html).toMatchObject({ status: 502, code: 'unexpected_response', type: 'api_error', requestId: 'req_header', raw: '<html>Bad gateway</html>' });
  });
});
