import { expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

// A send time-out far beyond the test: a hanging request of A ends only when the receiver closes, so B's delivery
// arriving while they all still hang can only come from the dispatcher keeping room for other merchants.
const env = { ...webhookEnv, WEBHOOK_TIMEOUT_MS: '600000' };
const ENDPOINTS = 16;
// 272 deliveries of A at once: more than the dispatcher has slots for (256).
const A_PAYMENTS = 17;

const { server } = usingTestServer({ env });
const receiver = usingReceiver();

const pathsOfA = Array.from({ length: ENDPOINTS }, (_, i) => `/a/${i}`);
const hangingAtA = () => receiver.deliveries.filter((d) => d.path.startsWith('/a/'));

it("one merchant's 16 hanging endpoints do not hold up another merchant's delivery", async () => {
  const a: ApiClient = apiClient(server.url, await server.merchant());
  const b: ApiClient = apiClient(server.url, await server.merchant());
  const hooksOfA = [];
  for (const path of pathsOfA) hooksOfA.push(await subscribe(a, receiver, path, ['payment.pending'], () => 'hang'));
  await subscribe(b, receiver, '/b', ['payment.pending']);

  for (let i = 0; i < A_PAYMENTS; i++) await newPayment(a);
  await eventually(() => hangingAtA().length >= ENDPOINTS, "A's deliveries hanging at its endpoints");

  const paymentOfB = await newPayment(b);
  const arrived = await eventually(() => receiver.at('/b').find((d) => d.payload?.data?.payment_id === paymentOfB), "B's delivery", 60_000);
  expect(arrived.verified).toBe(true);

  // Every request A's endpoints got is still unanswered, and no attempt of A has ended (the dispatcher recorded none).
  expect(hangingAtA().every((d) => d.answered === 0)).toBe(true);
  for (const hook of hooksOfA) {
    const deliveries = await deliveriesOf(a, hook.webhookId);
    expect(deliveries.filter((d) => d.status !== 'pending' || d.last_error !== null || d.last_response_status !== null)).toEqual([]);
  }
}, 120_000);
