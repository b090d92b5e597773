import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer } from '../support/test-server.js';
import { deliveriesOf, durableDatabase, newPayment, subscribe, webhookEnv } from './fixtures.js';

// A time-out generous enough that a busy test process never turns a prompt answer into a retry.
const env = { ...webhookEnv, WEBHOOK_TIMEOUT_MS: '5000' };
let receiver: Receiver;
let database: Awaited<ReturnType<typeof durableDatabase>>;

beforeAll(async () => {
  [receiver, database] = await Promise.all([startReceiver(), durableDatabase()]);
}, 120_000);
afterAll(async () => {
  await receiver.close();
  await database.drop();
}, 120_000);

it('delivers after a restart every event committed before it, including one a dying dispatcher had claimed', async () => {
  // First life: events are committed while no dispatcher runs.
  const first = await startTestServer({ env: { ...env, ...database.env, WEBHOOK_DISPATCHER: 'off' } });
  const merchant = await first.merchant();
  let api = apiClient(first.url, merchant);
  const hook = await subscribe(api, receiver, '/survivor', ['payment.pending', 'payment.succeeded']);
  const paymentIds = [await newPayment(api), await newPayment(api)];
  await api.post(`/Thai/v1/test/payments/${paymentIds[0]}/succeed`);
  // A dispatcher claims one delivery with a 1 s lease, then dies before sending it.
  const claimed = await first.running.runtime.services.webhooks.queue.claimDue(new Date(), 1, 1_000);
  expect(claimed).toHaveLength(1);
  await first.stop();
  expect(receiver.at('/survivor')).toEqual([]);

  // Second life, on the same database, with the dispatcher running.
  const second = await startTestServer({ env: { ...env, ...database.env } });
  try {
    api = apiClient(second.url, merchant);
    const deliveries = await eventually(async () => {
      const listed = await deliveriesOf(api, hook.webhookId);
      return listed.length === 3 && listed.every((d) => d.status === 'delivered') && listed;
    }, 'all three deliveries delivered');
    // The dying dispatcher's claim counts as an attempt; a busy machine may add a time-out and a retry after it.
    expect(deliveries.find((d) => d.event_id === claimed[0]?.eventId)?.attempts).toBeGreaterThanOrEqual(2);
    const received = receiver.at('/survivor');
    expect(received.every((d) => d.verified)).toBe(true);
    expect(new Set(received.map((d) => d.id))).toEqual(new Set(deliveries.map((d) => d.event_id)));
    expect(received.map((d) => `${d.payload.event}:${d.payload.data.payment_id}`).sort()).toEqual(
      [`payment.pending:${paymentIds[0]}`, `payment.pending:${paymentIds[1]}`, `payment.succeeded:${paymentIds[0]}`].sort(),
    );
  } finally {
    await second.stop();
  }
}, 120_000);
