import { NotFoundError, ValidationError } from '@payment-qr/sdk';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, apiPath, authorized, errorLike, id, jsonResponse, listOf, pendingDeliveryLike, postHeaders, webhookLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();
// The verifying service allows private addresses (its documented test setting), so no DNS is involved.
const url = 'https://127.0.0.1:8443/hooks/promptpay';
const events = ['payment.succeeded', 'payment.failed', 'refund.completed'] as const;

describe('webhooks', () => {
  it('registers an endpoint', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to register a webhook endpoint')
      .withRequest('POST', '/Thai/v1/webhooks', (request) => request.headers(postHeaders).jsonBody({ url, events }))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(webhookLike(url, [...events])))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).webhooks.create({ url, events: [...events] })).toMatchObject({ url, status: 'active' });
      });
  });

  it('refuses a URL that is not absolute with 422 invalid_url', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to register a webhook with a relative URL')
      .withRequest('POST', '/Thai/v1/webhooks', (request) => request.headers(postHeaders).jsonBody({ url: '/hooks', events: ['payment.succeeded'] }))
      .willRespondWith(422, (response) => response.headers(jsonResponse).jsonBody(errorLike('invalid_url', 'validation_error', 'url')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).webhooks.create({ url: '/hooks', events: ['payment.succeeded'] }));
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ status: 422, code: 'invalid_url' });
      });
  });

  it('lists endpoints', async () => {
    await pact
      .addInteraction()
      .given('a new merchant')
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to list webhook endpoints')
      .withRequest('GET', '/Thai/v1/webhooks', (request) => request.headers(authorized).query({ limit: '10' }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('webhooks', webhookLike(url, [...events]), { total: 1, limit: 10, offset: 0 })),
      )
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).webhooks.list({ limit: 10 }).page()).toMatchObject({ total: 1, hasMore: false });
      });
  });

  it('retrieves an endpoint', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to retrieve a webhook endpoint')
      .withRequest('GET', apiPath`/webhooks/${'webhook_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(webhookLike(url, [...events])))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).webhooks.retrieve(EXAMPLE.webhookId)).toMatchObject({ webhook_id: EXAMPLE.webhookId });
      });
  });

  it('reads the signing secret', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to read a webhook signing secret')
      .withRequest('GET', apiPath`/webhooks/${'webhook_id'}/secret`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response
          .headers(jsonResponse)
          .jsonBody({ secret: MatchersV3.regex('^whsec_[A-Za-z0-9+/]{32,88}={0,2}$', 'whsec_DQyO8ZZk+RuOEFN/mxUnfq3cOKKi8/hb23z3CKBh0Nw=') }),
      )
      .executeTest(async (mock) => {
        expect((await sdkAgainst(mock).webhooks.secret(EXAMPLE.webhookId)).secret).toMatch(/^whsec_/);
      });
  });

  it('lists the deliveries of an endpoint', async () => {
    await pact
      .addInteraction()
      .given('a webhook with a pending delivery exists', { url })
      .uponReceiving('a request to list the deliveries of a webhook')
      .withRequest('GET', apiPath`/webhooks/${'webhook_id'}/deliveries`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('deliveries', pendingDeliveryLike('payment.pending'), { total: 1, limit: 20, offset: 0 })),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).webhooks.deliveries(EXAMPLE.webhookId).page();
        expect(page.data[0]).toMatchObject({ event_type: 'payment.pending', status: 'pending' });
      });
  });

  it('deletes an endpoint', async () => {
    await pact
      .addInteraction()
      .given('a webhook exists', { url, events: [...events] })
      .uponReceiving('a request to delete a webhook endpoint')
      .withRequest('DELETE', apiPath`/webhooks/${'webhook_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody({ webhook_id: id('webhook', EXAMPLE.webhookId), deleted: true }))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).webhooks.delete(EXAMPLE.webhookId)).toEqual({ webhook_id: EXAMPLE.webhookId, deleted: true });
      });
  });

  it('reports an unknown endpoint as 404 webhook_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve a webhook that does not exist')
      .withRequest('GET', '/Thai/v1/webhooks/wh_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('webhook_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).webhooks.retrieve('wh_doesnotexist0000000000000'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ code: 'webhook_not_found' });
      });
  });
});
