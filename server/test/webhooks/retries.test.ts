import { describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

// webhookEnv: WEBHOOK_RETRY_SCHEDULE=0,200ms,200ms (4 attempts in all); a hanging receiver is given up on after 3 s.
const ATTEMPTS = 4;
const env = { ...webhookEnv, WEBHOOK_TIMEOUT_MS: '3000' };

let api: ApiClient;

const { server } = usingTestServer({ env });
const receiver = usingReceiver();

async function freshMerchant(): Promise<ApiClient> {
  api = apiClient(server.url, await server.merchant());
  return api;
}

const settledDelivery = (webhookId: string, status: string) =>
  eventually(async () => (await deliveriesOf(api, webhookId)).find((d) => d.status === status), `a ${status} delivery of ${webhookId}`);

describe('retries', () => {
  it('retries after a 500 with the same webhook-id and delivers', async () => {
    await freshMerchant();
    const hook = await subscribe(api, receiver, '/flaky', ['payment.pending'], (_d, nth) => (nth === 1 ? 500 : 204));
    await newPayment(api);
    const delivery = await settledDelivery(hook.webhookId, 'delivered');
    expect(delivery).toMatchObject({ attempts: 2, last_response_status: 204, next_attempt_at: null });
    const received = receiver.at('/flaky');
    expect(received.map((d) => d.answered)).toEqual([500, 204]);
    expect(new Set(received.map((d) => d.id))).toEqual(new Set([delivery.event_id]));
    expect(received.every((d) => d.verified)).toBe(true);
  });

  it('retries after a time-out and delivers', async () => {
    await freshMerchant();
    const hook = await subscribe(api, receiver, '/slow', ['payment.pending'], (_d, nth) => (nth === 1 ? 'hang' : 200));
    await newPayment(api);
    const delivery = await settledDelivery(hook.webhookId, 'delivered');
    expect(delivery).toMatchObject({ attempts: 2, last_response_status: 200 });
    expect(receiver.at('/slow').map((d) => d.answered)).toEqual([0, 200]);
  });

  it('shows the pending retry, then marks the delivery failed after the last attempt and keeps it listed', async () => {
    await freshMerchant();
    const hook = await subscribe(api, receiver, '/broken', ['payment.pending'], () => 503);
    await newPayment(api);
    const retrying = await eventually(
      async () => (await deliveriesOf(api, hook.webhookId)).find((d) => d.status === 'pending' && d.attempts >= 1 && d.last_response_status === 503),
      'a delivery awaiting retry',
    );
    expect(retrying.next_attempt_at).not.toBeNull();
    expect(retrying.last_error).toMatch(/503/);
    const failed = await settledDelivery(hook.webhookId, 'failed');
    expect(failed).toMatchObject({ attempts: ATTEMPTS, last_response_status: 503, next_attempt_at: null, delivered_at: null });
    expect(receiver.at('/broken')).toHaveLength(ATTEMPTS);
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}`)).body.status).toBe('active');
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    await freshMerchant();
    const hook = await subscribe(api, receiver, '/moved', ['payment.pending'], (_d, nth) => (nth === 1 ? 302 : 200));
    await newPayment(api);
    const delivery = await settledDelivery(hook.webhookId, 'delivered');
    expect(delivery.attempts).toBe(2);
    expect(receiver.at('/redirected')).toEqual([]);
  });

  it('disables the webhook on 410 Gone and sends it nothing more', async () => {
    await freshMerchant();
    const hook = await subscribe(api, receiver, '/gone', ['payment.pending', 'payment.succeeded'], () => 410);
    const paymentId = await newPayment(api);
    const failed = await settledDelivery(hook.webhookId, 'failed');
    expect(failed).toMatchObject({ attempts: 1, last_response_status: 410, next_attempt_at: null });
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}`)).body.status).toBe('disabled');
    expect((await api.get('/Thai/v1/webhooks')).body.webhooks[0]).toMatchObject({ webhook_id: hook.webhookId, status: 'disabled' });

    // A later event finds no active subscriber; a healthy webhook proves the dispatcher has moved past it.
    const witness = await subscribe(api, receiver, '/after-gone', ['payment.succeeded']);
    await api.post(`/Thai/v1/test/payments/${paymentId}/succeed`);
    await eventually(() => receiver.at('/after-gone').length === 1, 'the witness delivery');
    await settledDelivery(witness.webhookId, 'delivered');
    expect(receiver.at('/gone')).toHaveLength(1);
    expect(await deliveriesOf(api, hook.webhookId)).toHaveLength(1);
  });

  it('verified every delivery it received', () => {
    expect(receiver.deliveries.filter((d) => d.path !== '/redirected' && !d.verified)).toEqual([]);
  });
});
