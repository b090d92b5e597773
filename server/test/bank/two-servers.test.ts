import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { buildApp } from '../../src/main.js';
import { apiClient } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { durableDatabase } from '../webhooks/fixtures.js';
import { bankSettings, callbackUrlOf, scbEnv } from '../support/bank.js';

let bank: BankSimulator;
let database: Awaited<ReturnType<typeof durableDatabase>>;
const servers: TestServer[] = [];
let secondApp: Server | undefined;

beforeAll(async () => {
  [bank, database] = await Promise.all([startBankSimulator({ ...bankSettings, knobs: { dropRate: 1 } }), durableDatabase()]);
});
afterAll(async () => {
  await new Promise((resolve) => (secondApp ? secondApp.close(resolve) : resolve(undefined)));
  for (const server of servers) await server.stop();
  await bank?.stop();
  await database?.drop();
});

/** Two servers on one database: on PostgreSQL two of them, each with its own pool; PGlite admits one process, so two HTTP apps in it. */
async function twoServers(): Promise<[TestServer, string, string]> {
  const env = { ...scbEnv(bank), ...database.env, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  const first = await startTestServer({ env });
  servers.push(first);
  if (database.env.DATABASE_URL) {
    const second = await startTestServer({ env });
    servers.push(second);
    return [first, first.url, second.url];
  }
  const server = createServer(buildApp(first.running.runtime, first.url));
  secondApp = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return [first, first.url, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`];
}

it('two servers receiving the same confirmation at once apply it once', async () => {
  const [first, urlA, urlB] = await twoServers();
  const api = apiClient(first.url, await first.merchant({ mode: 'live' }));
  const hook = await api.post('/Thai/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['payment.succeeded'] });
  expect(hook.status).toBe(200);
  const payments: string[] = [];
  const confirmations: object[] = [];
  for (let i = 0; i < 5; i++) {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 15000 + i, currency: 'THB' });
    const { transaction } = bank.pay({ qr_data: qr.body.qr_data });
    const { reverseFlag: _r, ...confirmation } = transaction;
    payments.push(qr.body.payment_id);
    confirmations.push(confirmation);
  }
  // Each confirmation three times to each server, all at once; a 503 (the inquiry slow on a busy machine) is resent, as the bank does.
  const confirm = async (url: string, confirmation: object): Promise<number[]> => {
    const statuses: number[] = [];
    while (statuses.length < 5 && statuses.at(-1) !== 200) {
      const response = await fetch(callbackUrlOf(url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(confirmation) });
      statuses.push(response.status);
    }
    return statuses;
  };
  const answers = await Promise.all(confirmations.flatMap((confirmation) => [urlA, urlB, urlA, urlB, urlA, urlB].map((url) => confirm(url, confirmation))));
  expect(answers.filter((statuses) => statuses.at(-1) !== 200 || statuses.some((s) => s !== 200 && s !== 503))).toEqual([]);
  for (const id of payments) expect((await api.get(`/Thai/v1/payments/${id}`)).body.status).toBe('succeeded');
  const deliveries = (await api.get(`/Thai/v1/webhooks/${hook.body.webhook_id}/deliveries?limit=100`)).body.deliveries;
  expect(deliveries).toHaveLength(payments.length);
  const knex = first.running.runtime.db.knex;
  const recorded = await knex('bank_transactions').select('payment_id');
  expect(recorded.map((r: { payment_id: string }) => r.payment_id).sort()).toEqual([...payments].sort());
}, 60_000);
