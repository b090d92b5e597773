import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { newPayment, subscribe, webhookEnv } from './fixtures.js';

// Failing fast, A's attempts end at once, so A never sits at its share of the slots: only the claim picking merchants
// before rows keeps A's backlog, older than any event of B, from standing between B and the dispatcher.
const { server } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();

const ENDPOINTS_ANSWERING_500 = 8;
const ENDPOINTS_REFUSING = 8;
// 80 x 16 = 1,280 deliveries owed to A, created faster than failing endpoints drain them.
const A_PAYMENTS = 80;
const A_CONCURRENCY = 8;
const B_PAYMENTS = 3;

/** A loopback port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

it("one merchant's backlog for 16 endpoints refusing connections or answering 500 does not hold up another merchant's deliveries", async () => {
  const merchantA = await server.merchant();
  const a: ApiClient = apiClient(server.url, merchantA);
  const b: ApiClient = apiClient(server.url, await server.merchant());
  const refused = await closedPort();
  for (let i = 0; i < ENDPOINTS_ANSWERING_500; i++) await subscribe(a, receiver, `/a/${i}`, ['payment.pending'], () => 500);
  for (let i = 0; i < ENDPOINTS_REFUSING; i++) {
    const res = await a.post('/Thai/v1/webhooks', { url: `http://127.0.0.1:${refused}/refused/${i}`, events: ['payment.pending'] });
    expect(res.status, res.text).toBe(200);
  }
  await subscribe(b, receiver, '/b', ['payment.pending']);

  // Deliveries of A no attempt has reached yet: the backlog that stands before any later event in time.
  const knex = server.running.runtime.db.knex;
  const untouchedOfA = async (): Promise<number> => {
    const [row] = await knex('webhook_deliveries').where({ merchant_id: merchantA.id, status: 'pending', attempts: 0 }).count<{ n: string }[]>({ n: '*' });
    return Number(row?.n ?? 0);
  };

  let created = 0;
  await Promise.all(
    Array.from({ length: A_CONCURRENCY }, async () => {
      while (created < A_PAYMENTS) {
        created++;
        await newPayment(a);
      }
    }),
  );
  await eventually(() => receiver.at('/a/0').length > 0, "A's first failing attempts");

  const judged: { before: number; after: number }[] = [];
  for (let i = 0; i < B_PAYMENTS; i++) {
    const before = await untouchedOfA();
    const paymentOfB = await newPayment(b);
    const arrived = await eventually(() => receiver.at('/b').find((d) => d.payload?.data?.payment_id === paymentOfB), "B's delivery", 60_000);
    const after = await untouchedOfA();
    expect(arrived.verified).toBe(true);
    judged.push({ before, after });
  }

  // Every one of B's deliveries arrived while most of A's older backlog was still waiting its turn: a claim that takes
  // the oldest due rows first would have gone through all of it before B's (leaving `after` at 0).
  expect(judged[0]!.before, 'the backlog of A when B made its first payment').toBeGreaterThanOrEqual(200);
  for (const { before, after } of judged.filter((j) => j.before >= 100)) expect(after, JSON.stringify(judged)).toBeGreaterThan(before / 2);
}, 180_000);
