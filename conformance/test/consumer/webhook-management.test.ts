import { NotFoundError, ValidationError } from '@payment-qr/sdk';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE,
  apiPath,
  authorized,
  errorLike,
  id,
  idempotencyKeyHeader,
  jsonRequest,
  jsonResponse,
  pendingDeliveryLike,
  postHeaders,
  timestamp,
} from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const { equal } = MatchersV3;
const pact = newPact();
const url = 'https://127.0.0.1:8443/hooks/promptpay';
const movedUrl = 'https://127.0.0.1:8443/hooks/promptpay-v2';
const events = ['payment.succeeded', 'payment.failed'] as const;

describe('webhook management', () => {
  it('updates an endpoint: a new URL, new kinds, disabled', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to update a webhook endpoint')
      .withRequest('PATCH', apiPath`/webhooks/${'webhook_id'}`, (request) =>
        request.headers({ ...authorized, ...jsonRequest }).jsonBody({ url: movedUrl, events: ['payment.pending'], status: 'disabled' }),
      )
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody({
          webhook_id: id('webhook', EXAMPLE.webhookId),
          url: equal(movedUrl),
          events: equal(['payment.pending']),
          status: equal('disabled'),
          created_at: timestamp(),
        }),
      )
      .executeTest(async (mock) => {
        const updated = await sdkAgainst(mock).webhooks.update(EXAMPLE.webhookId, { url: movedUrl, events: ['payment.pending'], status: 'disabled' });
        expect(updated).toMatchObject({ url: movedUrl, status: 'disabled' });
      });
  });

  it('refuses an update with a relative URL with 422 invalid_url', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to move a webhook endpoint to a relative URL')
      .withRequest('PATCH', apiPath`/webhooks/${'webhook_id'}`, (request) => request.headers({ ...authorized, ...jsonRequest }).jsonBody({ url: '/hooks' }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_url', 'validation_error', 'url')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).webhooks.update(EXAMPLE.webhookId, { url: '/hooks' }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'invalid_url' });
      });
  });

  it('rotates the signing secret, keeping the previous one for an hour', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to rotate a webhook signing secret')
      .withRequest('POST', apiPath`/webhooks/${'webhook_id'}/rotate-secret`, (request) =>
        request.headers(postHeaders).jsonBody({ expire_previous_in_seconds: 3600 }),
      )
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody({ secret: MatchersV3.regex('^whsec_[A-Za-z0-9+/]{32,88}={0,2}$', 'whsec_DQyO8ZZk+RuOEFN/mxUnfq3cOKKi8/hb23z3CKBh0Nw=') }),
      )
      .executeTest(async (mock) => {
        expect((await sdkAgainst(mock).webhooks.rotateSecret(EXAMPLE.webhookId, { expire_previous_in_seconds: 3600 })).secret).toMatch(/^whsec_/);
      });
  });

  it('sends a test event to one endpoint and answers its delivery', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to send a test event to a webhook endpoint')
      .withRequest('POST', apiPath`/webhooks/${'webhook_id'}/test`, (request) => request.headers({ ...authorized, ...idempotencyKeyHeader }))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(pendingDeliveryLike('webhook.test')))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).webhooks.sendTest(EXAMPLE.webhookId)).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
      });
  });

  it('delivers a delivery again, answering the same delivery', async () => {
    await pact
      .addInteraction()
      .given('a webhook with a pending delivery exists', { url })
      .uponReceiving('a request to retry a webhook delivery')
      .withRequest('POST', apiPath`/webhooks/${'webhook_id'}/deliveries/${'delivery_id'}/retry`, (request) =>
        request.headers({ ...authorized, ...idempotencyKeyHeader }),
      )
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody({ ...pendingDeliveryLike('payment.pending'), delivery_id: id('delivery', EXAMPLE.deliveryId) }),
      )
      .executeTest(async (mock) => {
        const retried = await sdkAgainst(mock).webhooks.retryDelivery(EXAMPLE.webhookId, EXAMPLE.deliveryId);
        expect(retried).toMatchObject({ delivery_id: EXAMPLE.deliveryId, event_type: 'payment.pending', status: 'pending' });
      });
  });

  it('reports an unknown delivery as 404 delivery_not_found', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to retry a delivery that does not exist')
      .withRequest('POST', apiPath`/webhooks/${'webhook_id'}/deliveries/whd_doesnotexist0000000000000/retry`, (request) =>
        request.headers({ ...authorized, ...idempotencyKeyHeader }),
      )
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('delivery_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).webhooks.retryDelivery(EXAMPLE.webhookId, 'whd_doesnotexist0000000000000'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ code: 'delivery_not_found' });
      });
  });
});
