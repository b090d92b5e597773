/**
 * `node --import tsx scripts/bench/round-trips.ts`: the SQL statements (database round trips) the real app makes
 * for one QR generation and one payment retrieval, as knex sends them, on a scratch PostgreSQL database.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMerchant } from '../../server/src/app/merchants.js';
import { loadConfig } from '../../server/src/config.js';
import { buildApp, openRuntime } from '../../server/src/main.js';
import { createScratchDatabase } from '../lib/postgres.js';

const db = await createScratchDatabase('pqr_bench_rt');
try {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' }));
  const { apiKey } = await createMerchant(runtime.services, { name: 'Bench', mode: 'test', account: { kind: 'promptpay_id', id: '0812345678' } });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', buildApp(runtime, base));
  let log: string[] = [];
  runtime.db.knex.on('query', (q: { sql: string }) => log.push(q.sql.replace(/\s+/g, ' ').slice(0, 110)));
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const show = (title: string) => {
    console.log(`\n${title}: ${log.length} statements`);
    for (const sql of log) console.log(`  ${sql}`);
    log = [];
  };
  const created = (await (
    await fetch(`${base}/Thai/v1/qr-codes`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'rt-1' },
      body: JSON.stringify({ amount: 15000, currency: 'THB' }),
    })
  ).json()) as { payment_id: string };
  show('POST /Thai/v1/qr-codes (with Idempotency-Key)');
  await fetch(`${base}/Thai/v1/payments/${created.payment_id}`, { headers });
  show(`GET /Thai/v1/payments/:id`);
  server.close();
  await runtime.close();
} finally {
  await db.drop();
}
