import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

// webhookEnv: WEBHOOK_RETRY_SCHEDULE=0,200ms,200ms, so 4 attempts in all.
const ATTEMPTS = 4;

const { server } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();

const merchant = async (): Promise<ApiClient> => apiClient(server.url, await server.merchant());
const settled = (api: ApiClient, webhookId: string, deliveryId: string, status: string) =>
  eventually(async () => (await deliveriesOf(api, webhookId)).find((d) => d.delivery_id === deliveryId && d.status === status), `${deliveryId} ${status}`);

describe('POST /Thai/v1/webhooks/{webhook_id}/test', () => {
  it('sends a signed webhook.test to that endpoint only, answers its delivery, and the events API does not list it', async () => {
    const api = await merchant();
    const everything = ['payment.pending', 'payment.succeeded', 'payment.failed', 'refund.completed', 'refund.failed'];
    const target = await subscribe(api, receiver, '/test-target', ['payment.succeeded']);
    const bystander = await subscribe(api, receiver, '/test-bystander', everything);

    const res = await api.post(`/Thai/v1/webhooks/${target.webhookId}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ webhook_id: target.webhookId, event_type: 'webhook.test', status: 'pending', attempts: 0, delivered_at: null });
    expect(res.body.delivery_id).toMatch(/^whd_/);
    expect(res.body.event_id).toMatch(/^evt_/);

    const received = await eventually(() => receiver.at('/test-target')[0], 'the test event');
    expect(received).toMatchObject({ id: res.body.event_id, verified: true });
    expect(received.payload).toEqual({
      id: res.body.event_id,
      event: 'webhook.test',
      data: { webhook_id: target.webhookId, url: target.url },
      timestamp: received.payload.timestamp,
    });
    await settled(api, target.webhookId, res.body.delivery_id, 'delivered');

    // A later event reaches the bystander, so the dispatcher is past the test: it was never fanned out.
    await newPayment(api);
    await eventually(() => receiver.at('/test-bystander').length > 0, 'the bystander delivery');
    expect(receiver.at('/test-bystander').map((d) => d.payload.event)).toEqual(['payment.pending']);
    expect((await deliveriesOf(api, bystander.webhookId)).map((d) => d.event_type)).toEqual(['payment.pending']);

    const events = await api.get('/Thai/v1/events');
    expect(events.body.events.map((e: { event: string }) => e.event)).toEqual(['payment.pending']);
    expect(events.body.total).toBe(1);
    expectEnvelope(await api.get(`/Thai/v1/events/${res.body.event_id}`), 404, 'event_not_found');
  });

  it('a disabled endpoint gets no test event; its test delivery fails', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/test-disabled', ['payment.pending']);
    await api.send('PATCH', `/Thai/v1/webhooks/${hook.webhookId}`, { status: 'disabled' });
    const res = await api.post(`/Thai/v1/webhooks/${hook.webhookId}/test`);
    expect(res.status).toBe(200);
    const failed = await settled(api, hook.webhookId, res.body.delivery_id, 'failed');
    expect(failed.attempts).toBe(0);
    expect(receiver.at('/test-disabled')).toEqual([]);
  });

  it("answers 404 webhook_not_found for an unknown id and another merchant's webhook, which gets nothing", async () => {
    const [api, other] = [await merchant(), await merchant()];
    const theirs = await subscribe(other, receiver, '/test-not-yours', ['payment.pending']);
    expectEnvelope(await api.post('/Thai/v1/webhooks/wh_doesnotexist000000000000/test'), 404, 'webhook_not_found');
    expectEnvelope(await api.post(`/Thai/v1/webhooks/${theirs.webhookId}/test`), 404, 'webhook_not_found');
    expect(await deliveriesOf(other, theirs.webhookId)).toEqual([]);
  });
});

describe('POST /Thai/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', () => {
  it('delivers a failed delivery again now: same delivery_id, same webhook-id, signed', async () => {
    const api = await merchant();
    let down = true;
    const hook = await subscribe(api, receiver, '/retry-after-failed', ['payment.pending'], () => (down ? 503 : 200));
    await newPayment(api);
    const [pending] = await deliveriesOf(api, hook.webhookId);
    const failed = await settled(api, hook.webhookId, pending.delivery_id, 'failed');
    expect(failed.attempts).toBe(ATTEMPTS);

    down = false;
    const res = await api.post(`/Thai/v1/webhooks/${hook.webhookId}/deliveries/${failed.delivery_id}/retry`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ delivery_id: failed.delivery_id, event_id: failed.event_id, status: 'pending' });
    const delivered = await settled(api, hook.webhookId, failed.delivery_id, 'delivered');
    expect(delivered).toMatchObject({ attempts: ATTEMPTS + 1, last_response_status: 200 });

    const received = receiver.at('/retry-after-failed');
    expect(received.map((d) => d.answered)).toEqual([503, 503, 503, 503, 200]);
    expect(new Set(received.map((d) => d.id))).toEqual(new Set([failed.event_id]));
    expect(received.every((d) => d.verified)).toBe(true);
    expect(await deliveriesOf(api, hook.webhookId)).toHaveLength(1);
  });

  it('delivers a delivered one again, with the same webhook-id, so the receiver can drop the duplicate', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/retry-delivered', ['payment.pending']);
    await newPayment(api);
    const [first] = await deliveriesOf(api, hook.webhookId);
    await settled(api, hook.webhookId, first.delivery_id, 'delivered');
    expect((await api.post(`/Thai/v1/webhooks/${hook.webhookId}/deliveries/${first.delivery_id}/retry`)).status).toBe(200);
    await eventually(() => receiver.at('/retry-delivered').length === 2, 'the redelivery');
    const [a, b] = receiver.at('/retry-delivered');
    expect(b?.id).toBe(a?.id);
    expect(b?.body).toBe(a?.body);
  });

  it('a retried test event goes to its endpoint again', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/retry-test', ['payment.pending']);
    const test = await api.post(`/Thai/v1/webhooks/${hook.webhookId}/test`);
    await settled(api, hook.webhookId, test.body.delivery_id, 'delivered');
    await api.post(`/Thai/v1/webhooks/${hook.webhookId}/deliveries/${test.body.delivery_id}/retry`);
    await eventually(() => receiver.at('/retry-test').length === 2, 'the test event again');
    expect(receiver.at('/retry-test').map((d) => d.id)).toEqual([test.body.event_id, test.body.event_id]);
  });

  it("answers 404 for an unknown delivery, another webhook's delivery, and another merchant's webhook or delivery", async () => {
    const [api, other] = [await merchant(), await merchant()];
    const mine = await subscribe(api, receiver, '/retry-mine', ['payment.pending']);
    const sibling = await subscribe(api, receiver, '/retry-sibling', ['payment.succeeded']);
    const theirs = await subscribe(other, receiver, '/retry-theirs', ['payment.pending']);
    await newPayment(api);
    await newPayment(other);
    const [myDelivery] = await deliveriesOf(api, mine.webhookId);
    const [theirDelivery] = await deliveriesOf(other, theirs.webhookId);
    const retry = (webhookId: string, deliveryId: string) => api.post(`/Thai/v1/webhooks/${webhookId}/deliveries/${deliveryId}/retry`);

    expectEnvelope(await retry(mine.webhookId, 'whd_doesnotexist000000000000'), 404, 'delivery_not_found');
    expectEnvelope(await retry(sibling.webhookId, myDelivery.delivery_id), 404, 'delivery_not_found');
    expectEnvelope(await retry(mine.webhookId, theirDelivery.delivery_id), 404, 'delivery_not_found');
    expectEnvelope(await retry(theirs.webhookId, theirDelivery.delivery_id), 404, 'webhook_not_found');
    expectEnvelope(await retry('wh_doesnotexist000000000000', myDelivery.delivery_id), 404, 'webhook_not_found');
    expect(await deliveriesOf(other, theirs.webhookId)).toHaveLength(1);
  });

  it('answers 401 without a key', async () => {
    expectEnvelope(await apiClient(server.url).post('/Thai/v1/webhooks/wh_x/deliveries/whd_x/retry'), 401, 'authentication_failed');
    expectEnvelope(await apiClient(server.url).post('/Thai/v1/webhooks/wh_x/test'), 401, 'authentication_failed');
  });
});
