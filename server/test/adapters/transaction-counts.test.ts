import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let api: ApiClient;
let knex: Knex;
let merchantId: string;

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await server.merchant();
  merchantId = merchant.id;
  api = apiClient(server.url, merchant);
  knex = server.running.runtime.db.knex;
});
afterAll(() => server.stop());

const newPaymentId = async (): Promise<string> => (await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' })).body.payment_id;
const totalOf = async (query: string): Promise<number> => (await api.get(`/Thai/v1/transactions?limit=1${query}`)).body.total;
const slotsOf = async (db: Knex | Knex.Transaction, status: string) =>
  Object.fromEntries((await db('transaction_counts').where({ merchant_id: merchantId, type: 'payment', status }).select('slot', 'n')).map((r) => [r.slot, Number(r.n)]));
const backendSlot = async (trx: Knex.Transaction): Promise<number> => Number((await trx.raw('SELECT pg_backend_pid() % 64 AS slot')).rows[0].slot);

describe('transaction counts', () => {
  it('keep totals exact under concurrent creation and completion', async () => {
    const ids = await Promise.all(Array.from({ length: 24 }, newPaymentId));
    await Promise.all(ids.slice(0, 8).map((id) => api.post(`/Thai/v1/test/payments/${id}/succeed`, {})));
    expect(await totalOf('')).toBeGreaterThanOrEqual(24);
    expect(await totalOf('&status=succeeded')).toBe(8);
    expect(await totalOf('&status=pending')).toBe((await totalOf('')) - 8);
  });

  it("count into the writing connection's own slot", async () => {
    const paymentId = await newPaymentId();
    await knex.transaction(async (trx) => {
      const slot = await backendSlot(trx);
      const [pendingBefore, failedBefore] = [await slotsOf(trx, 'pending'), await slotsOf(trx, 'failed')];
      await trx('transactions').where({ payment_id: paymentId }).update({ status: 'failed' });
      const [pendingAfter, failedAfter] = [await slotsOf(trx, 'pending'), await slotsOf(trx, 'failed')];
      expect(pendingAfter).toEqual({ ...pendingBefore, [slot]: (pendingBefore[slot] ?? 0) - 1 });
      expect(failedAfter).toEqual({ ...failedBefore, [slot]: (failedBefore[slot] ?? 0) + 1 });
    });
  });

  it('never make a writer wait for another connection that has not committed (PostgreSQL: many connections)', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, newPaymentId));
    if (server.running.runtime.db.kind === 'embedded') {
      // One connection: nothing can wait on another; the counts still follow every write.
      await knex('transactions').whereIn('payment_id', ids).update({ status: 'failed' });
      expect(await totalOf('&status=failed')).toBeGreaterThanOrEqual(30);
      return;
    }
    await knex.transaction(async (holder) => {
      await holder('transactions').where({ payment_id: ids[0] }).update({ status: 'failed' }); // holds its slots' rows
      const holderSlot = await backendSlot(holder);
      await knex.transaction(async (other) => {
        if ((await backendSlot(other)) === holderSlot) return; // one in 64: nothing to show on this pair
        await other.raw("SET LOCAL lock_timeout = '2s'");
        for (const id of ids.slice(1)) await other('transactions').where({ payment_id: id }).update({ status: 'failed' });
      });
    });
    expect(await totalOf('&status=failed')).toBeGreaterThanOrEqual(30);
  });
});
