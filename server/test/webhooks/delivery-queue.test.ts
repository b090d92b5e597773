import { beforeAll, describe, expect, it } from 'vitest';
import { claimDueDeliveries } from '../../src/app/deliver-webhooks.js';
import type { AttemptResult } from '../../src/domain/delivery-schedule.js';
import type { DeliveryQueue } from '../../src/ports/webhook-delivery.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

// The dispatcher is off: the test drives the queue by hand, with times of its choosing.
let queue: DeliveryQueue;
const later = (ms: number) => new Date(Date.now() + ms);
const delivered = (at: Date): AttemptResult => ({
  status: 'delivered',
  lastResponseStatus: 200,
  lastError: null,
  nextAttemptAt: null,
  deliveredAt: at,
  disableWebhook: false,
});

// WEBHOOK_TIMEOUT_MS 10 s (webhookEnv) and a lease margin of 2 s: a dispatcher's claim lasts 22 s.
const { server } = usingTestServer({ env: { ...webhookEnv, WEBHOOK_DISPATCHER: 'off', WEBHOOK_LEASE_MARGIN_MS: '2000' } });
const receiver = usingReceiver();
beforeAll(async () => {
  queue = server.running.runtime.services.webhooks.queue;
});

async function merchantWithDeliveries(count: number): Promise<{ api: ApiClient; webhookId: string }> {
  const api = apiClient(server.url, await server.merchant());
  const { webhookId } = await subscribe(api, receiver, `/queue-${Math.random()}`, ['payment.pending']);
  for (let i = 0; i < count; i++) await newPayment(api);
  return { api, webhookId };
}

/** Claims everything due at `at`; earlier tests' leftovers are settled so each test sees its own rows. */
async function drain(at: Date) {
  for (const claimed of await queue.claimDue(at, 1000, 60_000)) await queue.recordAttempt(claimed, delivered(at));
}

describe('DeliveryQueue', () => {
  it('leases a claim: nobody else gets it until the lease ends, then it is retried as a new attempt', async () => {
    await drain(later(3_600_000));
    const { api, webhookId } = await merchantWithDeliveries(1);
    const [first, ...rest] = await queue.claimDue(later(0), 10, 10_000);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ webhookId, attempt: 1 });
    expect(first?.payload).toContain(first?.eventId);
    expect(await queue.claimDue(later(9_000), 10, 10_000)).toEqual([]);
    expect(await queue.nextDueAt()).toBeInstanceOf(Date);

    const [again] = await queue.claimDue(later(11_000), 10, 10_000);
    expect(again).toMatchObject({ deliveryId: first?.deliveryId, attempt: 2 });
    // The dispatcher that lost its lease reports late: ignored. The current attempt's result counts.
    expect(await queue.recordAttempt(first!, delivered(new Date()))).toBeNull();
    expect(await queue.recordAttempt(again!, delivered(new Date()))).toMatchObject({ status: 'delivered' });
    expect((await deliveriesOf(api, webhookId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it("leases a dispatcher's claim for twice WEBHOOK_TIMEOUT_MS plus WEBHOOK_LEASE_MARGIN_MS", async () => {
    await drain(later(3_600_000));
    const { webhookId } = await merchantWithDeliveries(1);
    const services = server.running.runtime.services;
    const at = (ms: number) => ({ ...services, clock: { now: () => later(ms) } });
    const [first, ...rest] = await claimDueDeliveries(at(0), 10);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ webhookId, attempt: 1 });
    expect(await claimDueDeliveries(at(21_000), 10)).toEqual([]);
    expect(await claimDueDeliveries(at(23_000), 10)).toMatchObject([{ deliveryId: first?.deliveryId, attempt: 2 }]);
  });

  it('gives concurrent claimers disjoint deliveries', async () => {
    await drain(later(3_600_000));
    await merchantWithDeliveries(6);
    const at = later(0);
    const [a, b, c] = await Promise.all([queue.claimDue(at, 3, 60_000), queue.claimDue(at, 3, 60_000), queue.claimDue(at, 3, 60_000)]);
    const ids = [...a!, ...b!, ...c!].map((d) => d.deliveryId);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });

  it('schedules a retry and reports when it is due', async () => {
    await drain(later(3_600_000));
    const { api, webhookId } = await merchantWithDeliveries(1);
    const [claimed] = await queue.claimDue(later(0), 10, 60_000);
    const retryAt = later(5_000);
    const retry: AttemptResult = {
      status: 'pending',
      lastResponseStatus: 500,
      lastError: 'The endpoint answered 500.',
      nextAttemptAt: retryAt,
      deliveredAt: null,
      disableWebhook: false,
    };
    expect(await queue.recordAttempt(claimed!, retry)).toEqual(retry);
    expect(await queue.nextDueAt()).toEqual(retryAt);
    expect(await queue.claimDue(later(4_000), 10, 60_000)).toEqual([]);
    expect((await deliveriesOf(api, webhookId))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_response_status: 500,
      next_attempt_at: retryAt.toISOString(),
    });
  });

  it('never claims deliveries of a deleted or disabled webhook, and marks them failed', async () => {
    await drain(later(3_600_000));
    const gone = await merchantWithDeliveries(2);
    const disabled = await merchantWithDeliveries(1);
    expect((await gone.api.delete(`/Thai/v1/webhooks/${gone.webhookId}`)).status).toBe(200);
    const [claimed] = await queue.claimDue(later(0), 1, 60_000);
    expect(claimed?.webhookId).toBe(disabled.webhookId);
    const gone410: AttemptResult = {
      status: 'failed',
      lastResponseStatus: 410,
      lastError: 'Gone',
      nextAttemptAt: null,
      deliveredAt: null,
      disableWebhook: true,
    };
    await newPayment(disabled.api); // queued before the 410 lands: retired with the webhook
    expect(await queue.recordAttempt(claimed!, gone410)).toEqual(gone410);
    expect(await queue.claimDue(later(0), 10, 60_000)).toEqual([]);
    expect(await queue.nextDueAt()).toBeNull();
    const listed = await deliveriesOf(disabled.api, disabled.webhookId);
    expect(listed.map((d) => [d.status, d.attempts, d.last_response_status])).toEqual(
      expect.arrayContaining([
        ['failed', 1, 410],
        ['failed', 0, null],
      ]),
    );
  });
});
