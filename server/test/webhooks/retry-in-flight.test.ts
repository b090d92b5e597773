import { describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/app/deliver-webhooks.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { manualClock, usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

// No dispatcher: the test makes each dispatch pass itself, and the clock stands still, so nothing falls due by time.
const clock = manualClock();

const { server } = usingTestServer({ clock, env: { ...webhookEnv, WEBHOOK_DISPATCHER: 'off', WEBHOOK_TIMEOUT_MS: '60000' } });
const receiver = usingReceiver();

const dispatchPass = () => deliverDueWebhooks(server.running.runtime.services);

/** An endpoint whose first request is answered only when the test says so; later ones at once. */
function heldFirstAnswer() {
  let release: (status: number) => void = () => undefined;
  const first = new Promise<number>((resolve) => (release = resolve));
  return { answer: (_d: unknown, nth: number) => (nth === 1 ? first : 200), release: (status: number) => release(status) };
}

async function inFlightDelivery(api: ApiClient, path: string, held: ReturnType<typeof heldFirstAnswer>) {
  const hook = await subscribe(api, receiver, path, ['payment.pending'], held.answer);
  await newPayment(api);
  const firstPass = dispatchPass();
  await eventually(() => receiver.at(path).length === 1, 'the first attempt to reach the endpoint');
  const [delivery] = await deliveriesOf(api, hook.webhookId);
  return { hook, delivery, firstPass };
}

describe('a retry of a delivery in flight waits for it', () => {
  it('is not sent beside the attempt in flight, and goes out once that attempt is recorded', async () => {
    const api = apiClient(server.url, await server.merchant());
    const held = heldFirstAnswer();
    const { hook, delivery, firstPass } = await inFlightDelivery(api, '/in-flight', held);

    const retry = await api.post(`/Thai/v1/webhooks/${hook.webhookId}/deliveries/${delivery.delivery_id}/retry`);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toMatchObject({ delivery_id: delivery.delivery_id, status: 'pending' });

    // Another dispatch pass while the first attempt is still unanswered finds nothing to send.
    expect(await dispatchPass()).toBe(0);
    expect(receiver.at('/in-flight')).toHaveLength(1);

    held.release(200);
    expect(await firstPass).toBe(1);
    expect((await deliveriesOf(api, hook.webhookId))[0]).toMatchObject({ status: 'pending', attempts: 1 });

    // Then the retry is due at once, and goes out as the same event.
    expect(await dispatchPass()).toBe(1);
    const requests = receiver.at('/in-flight');
    expect(requests.map((r) => [r.id, r.answered])).toEqual([
      [delivery.event_id, 200],
      [delivery.event_id, 200],
    ]);
    expect(requests.every((r) => r.verified)).toBe(true);
    expect((await deliveriesOf(api, hook.webhookId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('after a failed attempt in flight, the retry asked for meanwhile is due at once, not on the retry schedule', async () => {
    const api = apiClient(server.url, await server.merchant());
    const held = heldFirstAnswer();
    const { hook, delivery, firstPass } = await inFlightDelivery(api, '/in-flight-failing', held);
    expect((await api.post(`/Thai/v1/webhooks/${hook.webhookId}/deliveries/${delivery.delivery_id}/retry`)).status).toBe(200);
    expect(await dispatchPass()).toBe(0);

    held.release(500);
    await firstPass;
    expect(await dispatchPass()).toBe(1);
    expect(receiver.at('/in-flight-failing').map((r) => r.answered)).toEqual([500, 200]);
    expect((await deliveriesOf(api, hook.webhookId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('a retry of a delivery not in flight is due at once, as before', async () => {
    const api = apiClient(server.url, await server.merchant());
    const hook = await subscribe(api, receiver, '/not-in-flight', ['payment.pending']);
    await newPayment(api);
    expect(await dispatchPass()).toBe(1);
    const [delivery] = await deliveriesOf(api, hook.webhookId);
    expect(delivery.status).toBe('delivered');
    expect((await api.post(`/Thai/v1/webhooks/${hook.webhookId}/deliveries/${delivery.delivery_id}/retry`)).status).toBe(200);
    expect(await dispatchPass()).toBe(1);
    expect(receiver.at('/not-in-flight')).toHaveLength(2);
  });
});
