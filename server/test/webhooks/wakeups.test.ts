import { it } from 'vitest';
import { embeddedDeliveryWakeups } from '../../src/adapters/webhooks/embedded-wakeups.js';
import { postgresDeliveryWakeups } from '../../src/adapters/postgres/delivery-wakeups.js';
import { apiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { newPayment, subscribe, webhookEnv } from './fixtures.js';

const { server } = usingTestServer({ env: { ...webhookEnv, WEBHOOK_DISPATCHER: 'off' } });
const receiver = usingReceiver();

it('wakes dispatchers when a transaction that queued deliveries commits', async () => {
  const { config, db } = server.running.runtime;
  const wakeups = config.databaseUrl ? postgresDeliveryWakeups(config.databaseUrl) : embeddedDeliveryWakeups(db.knex);
  let wakes = 0;
  const unsubscribe = await wakeups.subscribe(() => void wakes++);
  try {
    const api = apiClient(server.url, await server.merchant());
    await subscribe(api, receiver, '/wake', ['payment.pending']);
    const before = wakes;
    await newPayment(api);
    await eventually(() => wakes > before, 'a wake-up after the payment committed');
  } finally {
    await unsubscribe();
  }
});
