import { describe, expect, it } from 'vitest';
import { purgeExpiredWebhookData } from '../../src/app/events.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { manualClock, usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const clock = manualClock();

const { server } = usingTestServer({ env: webhookEnv, clock });
const receiver = usingReceiver();

const merchant = async (): Promise<ApiClient> => apiClient(server.url, await server.merchant());
const eventsOf = async (api: ApiClient, query = '') => {
  const res = await api.get(`/Thai/v1/events${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { events: any[]; total: number; limit: number; offset: number };
};

describe('GET /Thai/v1/events', () => {
  it('records every event of a merchant, though no webhook subscribes, newest first', async () => {
    const api = await merchant();
    const first = await newPayment(api);
    clock.advance(1);
    // With a key, QR creation writes its rows in one statement: the event is counted and listed all the same.
    const keyed = await api.post('/Thai/v1/qr-codes', { amount: 25000, currency: 'THB' }, { idempotencyKey: `events-${first}` });
    expect(keyed.status, keyed.text).toBe(200);
    const second = keyed.body.payment_id as string;
    clock.advance(1);
    expect((await api.post(`/Thai/v1/test/payments/${first}/succeed`)).status).toBe(200);
    const page = await eventsOf(api);
    expect(page).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(page.events.map((e) => [e.event, e.data.payment_id])).toEqual([
      ['payment.succeeded', first],
      ['payment.pending', second],
      ['payment.pending', first],
    ]);
    for (const event of page.events) expect(Object.keys(event).sort()).toEqual(['data', 'event', 'id', 'timestamp']);
  });

  it('filters by type and by an inclusive date range, and pages with a total of every match', async () => {
    const api = await merchant();
    const start = clock.now();
    for (let i = 0; i < 5; i++) {
      await newPayment(api);
      clock.advance(1_000);
    }
    const paymentId = await newPayment(api);
    await api.post(`/Thai/v1/test/payments/${paymentId}/fail`);
    expect((await eventsOf(api, '?type=payment.failed')).events.map((e) => e.data.payment_id)).toEqual([paymentId]);
    expect((await eventsOf(api, '?type=payment.pending')).total).toBe(6);
    expect((await eventsOf(api, '?type=refund.completed')).total).toBe(0);

    const page = await eventsOf(api, '?limit=2&offset=1');
    expect(page).toMatchObject({ total: 7, limit: 2, offset: 1 });
    expect(page.events).toHaveLength(2);

    const from = new Date(start.getTime() + 1_000).toISOString();
    const to = new Date(start.getTime() + 3_000).toISOString();
    const ranged = await eventsOf(api, `?start_date=${from}&end_date=${to}`);
    expect(ranged.total).toBe(3);
    expect(ranged.events.map((e) => e.timestamp)).toEqual([to, new Date(start.getTime() + 2_000).toISOString(), from]);
  });

  it.each([
    ['an unknown type', '?type=payment.refunded', 'type'],
    ['the test kind', '?type=webhook.test', 'type'],
    ['limit 0', '?limit=0', 'limit'],
    ['limit 101', '?limit=101', 'limit'],
    ['a negative offset', '?offset=-1', 'offset'],
    ['a bad date', '?start_date=yesterday', 'start_date'],
    ['an unknown parameter', '?status=pending', undefined],
  ])('answers 400 invalid_parameters for %s', async (_what, query, param) => {
    const res = await (await merchant()).get(`/Thai/v1/events${query}`);
    expectEnvelope(res, 400, 'invalid_parameters');
    if (param) expect(res.body.error.param).toBe(param);
  });

  it('answers 401 without a key', async () => {
    expectEnvelope(await apiClient(server.url).get('/Thai/v1/events'), 401, 'authentication_failed');
  });

  it("never lists another merchant's events", async () => {
    const [mine, theirs] = [await merchant(), await merchant()];
    await newPayment(theirs);
    expect(await eventsOf(mine)).toMatchObject({ events: [], total: 0 });
  });
});

describe('GET /Thai/v1/events/{event_id}', () => {
  it('reads exactly as the webhook payload its endpoint received, byte for byte', async () => {
    const api = await merchant();
    await subscribe(api, receiver, '/exact', ['payment.pending']);
    const paymentId = await newPayment(api, { metadata: { order_id: 'ORD-1', nested: { a: [1, 2] }, __proto__x: 'plain' } });
    const delivery = await eventually(() => receiver.at('/exact').find((d) => d.payload?.data?.payment_id === paymentId), 'the delivery');
    const res = await api.get(`/Thai/v1/events/${delivery.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(delivery.body);
    expect((await eventsOf(api)).events[0]).toEqual(JSON.parse(delivery.body));
  });

  it("answers 404 event_not_found for an unknown id and for another merchant's event, alike", async () => {
    const [mine, theirs] = [await merchant(), await merchant()];
    await newPayment(theirs);
    const [theirEvent] = (await eventsOf(theirs)).events;
    const unknown = await mine.get('/Thai/v1/events/evt_doesnotexist000000000000');
    const foreign = await mine.get(`/Thai/v1/events/${theirEvent.id}`);
    expectEnvelope(unknown, 404, 'event_not_found');
    expectEnvelope(foreign, 404, 'event_not_found');
    expect({ ...foreign.body.error, message: '', request_id: '' }).toEqual({ ...unknown.body.error, message: '', request_id: '' });
  });
});

describe('30-day retention', () => {
  it('the background sweep purges events older than 30 days, with their deliveries, and keeps the rest', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/retention', ['payment.pending']);
    const old = await newPayment(api);
    await eventually(async () => (await deliveriesOf(api, hook.webhookId)).some((d) => d.status === 'delivered'), 'the old delivery');
    const [oldEvent] = (await eventsOf(api)).events;
    // Paid, so that the expiry sweep, which may run once the clock has moved, has no payment.expired to announce.
    expect((await api.post(`/Thai/v1/test/payments/${old}/succeed`)).status).toBe(200);

    clock.advance(30 * DAY_MS + 1_000);
    const recent = await newPayment(api);
    await purgeExpiredWebhookData(server.running.runtime.services);

    const page = await eventsOf(api);
    expect(page.total).toBe(1);
    expect(page.events.map((e) => e.data.payment_id)).toEqual([recent]);
    expectEnvelope(await api.get(`/Thai/v1/events/${oldEvent.id}`), 404, 'event_not_found');
    expect((await deliveriesOf(api, hook.webhookId)).map((d) => d.event_id)).not.toContain(oldEvent.id);
    // The payment itself stays: only its announcement ages out.
    expect((await api.get(`/Thai/v1/payments/${old}`)).status).toBe(200);
    clock.set(new Date());
  });
});
