import { NotFoundError } from '@payment-qr/sdk';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, apiPath, authorized, errorLike, jsonResponse, listOf, paymentEventLike } from '../support/matchers.js';
import { newPact } from '../support/pact.js';
import { apiErrorFrom, sdkAgainst } from '../support/sdk.js';

const pact = newPact();

describe('events', () => {
  it('lists events of one kind, a page at a time, each as its webhook payload', async () => {
    await pact
      .addInteraction()
      .given('the merchant has events', { count: 3, amount: 150000 })
      .uponReceiving('a request for the first page of payment.pending events, two per page')
      .withRequest('GET', '/Thai/v1/events', (request) => request.headers(authorized).query({ type: 'payment.pending', limit: '2', offset: '0' }))
      .willRespondWith(200, (response) =>
        response.headers(jsonResponse).jsonBody(listOf('events', paymentEventLike('payment.pending', 'pending', 150000), { total: 3, limit: 2, offset: 0 })),
      )
      .executeTest(async (mock) => {
        const page = await sdkAgainst(mock).events.list({ type: 'payment.pending', limit: 2, offset: 0 }).page();
        expect(page).toMatchObject({ total: 3, limit: 2, offset: 0, hasMore: true });
        expect(page.data[0]).toMatchObject({ event: 'payment.pending', data: { status: 'pending', amount: 150000 } });
      });
  });

  it('retrieves one event by id', async () => {
    await pact
      .addInteraction()
      .given('the merchant has events', { count: 1, amount: 25000 })
      .uponReceiving('a request to retrieve an event')
      .withRequest('GET', apiPath`/events/${'event_id'}`, (request) => request.headers(authorized))
      .willRespondWith(200, (response) => response.headers(jsonResponse).jsonBody(paymentEventLike('payment.pending', 'pending', 25000)))
      .executeTest(async (mock) => {
        expect(await sdkAgainst(mock).events.retrieve(EXAMPLE.eventId)).toMatchObject({ id: EXAMPLE.eventId, event: 'payment.pending' });
      });
  });

  it('reports an unknown event as 404 event_not_found', async () => {
    await pact
      .addInteraction()
      .given('a merchant exists')
      .uponReceiving('a request to retrieve an event that does not exist')
      .withRequest('GET', '/Thai/v1/events/evt_doesnotexist0000000000000', (request) => request.headers(authorized))
      .willRespondWith(404, (response) => response.headers(jsonResponse).jsonBody(errorLike('event_not_found', 'not_found')))
      .executeTest(async (mock) => {
        const error = await apiErrorFrom(sdkAgainst(mock).events.retrieve('evt_doesnotexist0000000000000'));
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ status: 404, code: 'event_not_found' });
      });
  });
});
