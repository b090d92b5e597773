import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { countFolder, foldCounts } from '../../src/adapters/postgres/count-folding.js';
import { usingTestServer } from '../support/test-server.js';

// Migration 0012_count_changes: writes append count changes, folds move them into the counters, totals read both;
// payments are kept by a guard instead of the foreign keys from qr_codes and transactions. Since migration 0030 a
// payment's own transaction is its payment (its status mapped: failed and expired are failed), counted by a trigger on
// payments; refunds' transactions are rows of `transactions`.

let knex: Knex;

const { server, merchant, api } = usingTestServer();
beforeAll(async () => {
  knex = server.running.runtime.db.knex;
});

const newPaymentId = async (): Promise<string> => (await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' })).body.payment_id;
const totalOf = async (query: string): Promise<number> => (await api.get(`/Thai/v1/transactions?limit=1${query}`)).body.total;
const eventTotal = async (): Promise<number> => (await api.get('/Thai/v1/events?limit=1')).body.total;
/** The merchant's transactions counted from the rows that make them: its payments and its refunds' transactions. */
const rowsOf = async (status?: string): Promise<number> => {
  const payments = knex('payments').where({ merchant_id: merchant.id });
  if (status) void payments.whereIn('status', status === 'failed' ? ['failed', 'expired'] : [status]);
  const refunds = knex('transactions').where({ merchant_id: merchant.id, ...(status ? { status } : {}) });
  const counted = await Promise.all([payments, refunds].map((rows) => rows.count({ n: '*' })));
  return counted.reduce((sum, [row]) => sum + Number(row!.n), 0);
};
const unfolded = async (): Promise<number> => Number((await knex('transaction_count_changes').where({ merchant_id: merchant.id }).count({ n: '*' }))[0]!.n);

describe('transaction and event totals', () => {
  it('stay exact under concurrent creation, completion and folds', async () => {
    const ids = await Promise.all(Array.from({ length: 24 }, newPaymentId));
    await Promise.all([
      ...ids.slice(0, 8).map((id) => api.post(`/Thai/v1/test/payments/${id}/succeed`, {})),
      ...Array.from({ length: 4 }, () => foldCounts(knex)),
    ]);
    expect(await totalOf('')).toBe(await rowsOf());
    expect(await totalOf('&status=succeeded')).toBe(8);
    expect(await totalOf('&status=pending')).toBe(await rowsOf('pending'));
  });

  it('count a write as a change at once, and the same after the change is folded into the counters', async () => {
    const [total, events] = [await totalOf(''), await eventTotal()];
    const paymentId = await newPaymentId();
    await foldCounts(knex); // nothing of this merchant is left unfolded, and only this test writes for it now
    await knex.transaction(async (trx) => {
      await trx('payments').where({ id: paymentId }).update({ status: 'failed' });
      // Uncommitted, so no fold can take them: exactly the two changes the update made.
      const changes = await trx('transaction_count_changes').where({ merchant_id: merchant.id }).orderBy('n').select('status', 'n');
      expect(changes).toEqual([
        { status: 'pending', n: -1 },
        { status: 'failed', n: 1 },
      ]);
    });
    expect([await totalOf(''), await totalOf('&status=failed'), await eventTotal()]).toEqual([total + 1, await rowsOf('failed'), events + 1]);
    await foldCounts(knex);
    expect(await unfolded()).toBe(0);
    expect([await totalOf(''), await totalOf('&status=failed'), await eventTotal()]).toEqual([total + 1, await rowsOf('failed'), events + 1]);
  });

  it("count a payment's transaction by its payment's status: failed and expired both as failed, a refund's as a row", async () => {
    const [expiring, failing, refunded] = [await newPaymentId(), await newPaymentId(), await newPaymentId()];
    const before = await Promise.all(['', '&type=failed', '&type=payment&status=succeeded', '&type=refund'].map(totalOf));
    await knex('payments').where({ id: expiring }).update({ status: 'expired' });
    await knex('payments').where({ id: failing }).update({ status: 'failed' });
    await knex('payments').where({ id: failing }).update({ status: 'expired' }); // failed to failed: no change
    await api.post(`/Thai/v1/test/payments/${refunded}/succeed`, {});
    expect((await api.post('/Thai/v1/refunds', { payment_id: refunded, amount: 4000 })).status).toBe(200);
    const after = await Promise.all(['', '&type=failed', '&type=payment&status=succeeded', '&type=refund'].map(totalOf));
    expect(after).toEqual([before[0]! + 1, before[1]! + 2, before[2]! + 1, before[3]! + 1]);
    expect(after[0]).toBe(await rowsOf());
  });

  it('are folded in the background without being asked', async () => {
    await newPaymentId();
    await expect.poll(unfolded, { timeout: 5_000, interval: 100 }).toBe(0);
    expect(await totalOf('')).toBe(await rowsOf());
  });

  it('are folded by a job that also vacuums the change tables now and then', async () => {
    const job = countFolder(knex);
    const vacuums = (): Promise<number> =>
      knex
        .raw("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'transaction_count_changes'")
        .then((r: { rows: { vacuum_count: string }[] }) => Number(r.rows[0]?.vacuum_count ?? 0));
    const before = await vacuums();
    await newPaymentId();
    for (let run = 0; run < 15; run++) await job();
    expect(await unfolded()).toBe(0);
    await expect.poll(vacuums, { timeout: 5_000 }).toBeGreaterThan(before); // statistics are reported asynchronously
  });

  it('never make a writer wait for another connection that has not committed (PostgreSQL: many connections)', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, newPaymentId));
    if (server.running.runtime.db.kind === 'embedded') {
      // One connection: nothing can wait on another; the counts still follow every write.
      await knex('payments').whereIn('id', ids).update({ status: 'failed' });
      expect(await totalOf('&status=failed')).toBe(await rowsOf('failed'));
      return;
    }
    await knex.transaction(async (holder) => {
      await holder('payments').where({ id: ids[0] }).update({ status: 'failed' }); // its changes uncommitted
      await knex.transaction(async (other) => {
        await other.raw("SET LOCAL lock_timeout = '2s'");
        for (const id of ids.slice(1)) await other('payments').where({ id }).update({ status: 'failed' });
        await foldCounts(other); // a fold, too, goes past the holder's uncommitted changes
      });
    });
    expect(await totalOf('&status=failed')).toBe(await rowsOf('failed'));
  });
});

describe('payments', () => {
  it('cannot be deleted, nor their id changed, nor the table truncated, so no QR code or transaction names one that is gone', async () => {
    const paymentId = await newPaymentId();
    await expect(knex('payments').where({ id: paymentId }).delete()).rejects.toThrow(/never deleted/);
    await expect(
      knex('payments')
        .where({ id: paymentId })
        .update({ id: `${paymentId}_renamed` }),
    ).rejects.toThrow(/never deleted/);
    await expect(
      knex.transaction(async (trx) => {
        await trx.raw('TRUNCATE payments CASCADE');
        throw new Error('TRUNCATE went through'); // rolls it back, and fails the test
      }),
    ).rejects.toThrow(/never deleted/);
    expect(await knex('qr_codes').where({ payment_id: paymentId }).first()).toBeTruthy();
  });
});
