import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBackgroundWork } from '../../src/main.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { deliveriesOf, durableDatabase, newPayment, subscribe, webhookEnv } from './fixtures.js';

const PAYMENTS = 60;
// A time-out generous enough that a busy test process never turns a prompt answer into a retry.
const env = { ...webhookEnv, WEBHOOK_TIMEOUT_MS: '15000' };
let receiver: Receiver;
let database: Awaited<ReturnType<typeof durableDatabase>>;
const servers: TestServer[] = [];
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [receiver, database] = await Promise.all([startReceiver(), durableDatabase()]);
});
afterAll(async () => {
  for (const stop of stops) await stop();
  for (const server of servers) await server.stop();
  await receiver.close();
  await database.drop();
});

/** On PostgreSQL: two more servers, each with its own pool and LISTEN connection. PGlite admits one process: two loops in it. */
async function startTwoDispatchers(home: TestServer): Promise<void> {
  if (database.env.DATABASE_URL) {
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ env: { ...env, ...database.env } }));
  } else {
    stops.push(startBackgroundWork(home.running.runtime), startBackgroundWork(home.running.runtime));
  }
}

it('two dispatchers on one database never make the same attempt twice', async () => {
  const home = await startTestServer({ env: { ...env, ...database.env, WEBHOOK_DISPATCHER: 'off' } });
  servers.push(home);
  const api: ApiClient = apiClient(home.url, await home.merchant());
  // Two endpoints for the same events: one answers at once, one fails each event once and then succeeds.
  const prompt = await subscribe(api, receiver, '/prompt', ['payment.pending']);
  const flaky = await subscribe(api, receiver, '/flaky', ['payment.pending'], (_d, nth) => (nth === 1 ? 500 : 200));
  for (let i = 0; i < PAYMENTS / 2; i++) await newPayment(api);
  await startTwoDispatchers(home);
  for (let i = 0; i < PAYMENTS / 2; i++) await newPayment(api);

  for (const [hook, attempts] of [
    [prompt, 1],
    [flaky, 2],
  ] as const) {
    const deliveries = await eventually(
      async () => {
        const listed = await deliveriesOf(api, hook.webhookId);
        return listed.length === PAYMENTS && listed.every((d) => d.status === 'delivered') && listed;
      },
      `${PAYMENTS} delivered`,
      60_000,
    );
    expect(deliveries.filter((d) => d.attempts !== attempts)).toEqual([]);
  }
  // An attempt taken by both dispatchers would reach the endpoint twice.
  const answersPerId = (path: string) => {
    const perId = new Map<string, number[]>();
    for (const d of receiver.at(path)) perId.set(d.id, [...(perId.get(d.id) ?? []), d.answered]);
    return [...perId.values()].map((answers) => answers.join());
  };
  expect(answersPerId('/prompt')).toEqual(Array(PAYMENTS).fill('200'));
  expect(answersPerId('/flaky')).toEqual(Array(PAYMENTS).fill('500,200'));
  expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
}, 120_000);
