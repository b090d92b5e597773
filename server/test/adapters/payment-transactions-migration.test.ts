import { afterAll, describe, expect, it } from 'vitest';
import { transactionRepository } from '../../src/adapters/postgres/repositories/transactions.js';
import { openV11Database, type OpenedDatabase } from '../support/databases.js';

// Migration 0030_payment_transactions_derived on a database v1.1 wrote: every payment's transaction was a row of its
// own with an id of its own. After it the rows are gone, and the list shows the same transactions, ids and all, with
// the same totals; the counts follow a payment's status from then on.

const T = Date.parse('2026-11-20T03:00:00Z');
const at = (seconds: number) => new Date(T + seconds * 1000).toISOString();

const payment = (id: string, status: string, amount: number, seconds: number) =>
  `INSERT INTO payments (id, merchant_id, status, amount, currency, metadata, created_at, updated_at)
   VALUES ('${id}', 'mch_v11', '${status}', ${amount}, 'THB', '{}', '${at(seconds)}', '${at(seconds)}');`;
const transaction = (id: string, paymentId: string, refundId: string | null, type: string, status: string, amount: number, seconds: number) =>
  `INSERT INTO transactions (id, merchant_id, payment_id, refund_id, type, status, amount, currency, created_at)
   VALUES ('${id}', 'mch_v11', '${paymentId}', ${refundId ? `'${refundId}'` : 'NULL'}, '${type}', '${status}', ${amount}, 'THB', '${at(seconds)}');`;

/** As v1.1 wrote them: four payments with their transactions (ids unrelated to the payments'), and a refund's. */
const v11Rows = [
  `INSERT INTO merchants (id, name, mode, created_at) VALUES ('mch_v11', 'v1.1 shop', 'test', '${at(0)}');`,
  payment('pay_a', 'pending', 1000, 1),
  transaction('txn_zzz', 'pay_a', null, 'payment', 'pending', 1000, 1),
  payment('pay_b', 'succeeded', 2000, 2),
  transaction('txn_mmm', 'pay_b', null, 'payment', 'succeeded', 2000, 2),
  payment('pay_c', 'expired', 3000, 2), // the same instant as pay_b: the tie is broken by the transactions' ids
  transaction('txn_nnn', 'pay_c', null, 'failed', 'failed', 3000, 2),
  payment('pay_d', 'refunded', 4000, 3),
  transaction('txn_aaa', 'pay_d', null, 'payment', 'refunded', 4000, 3),
  `INSERT INTO refunds (id, merchant_id, payment_id, amount, currency, status, created_at) VALUES ('rfd_d', 'mch_v11', 'pay_d', 4000, 'THB', 'succeeded', '${at(4)}');`,
  transaction('txn_rrr', 'pay_d', 'rfd_d', 'refund', 'succeeded', -4000, 4),
].join('\n');

const opened: OpenedDatabase[] = [];
afterAll(async () => {
  for (const database of opened.reverse()) await database.close();
});

describe('migration 0030_payment_transactions_derived', () => {
  it("keeps every transaction's id, answer and count, stores refunds' rows only, and counts by the payment from then on", async () => {
    const database = await openV11Database(v11Rows);
    opened.push(database);
    const { knex } = database.db;
    const transactions = transactionRepository(knex);
    const page = { offset: 0, limit: 10 };

    const listed = await transactions.list('mch_v11', {}, page);
    expect(listed.total).toBe(5);
    expect(listed.items.map((t) => [t.id, t.paymentId, t.refundId, t.type, t.status, t.amount, t.createdAt.toISOString()])).toEqual([
      ['txn_rrr', 'pay_d', 'rfd_d', 'refund', 'succeeded', -4000, at(4)],
      ['txn_aaa', 'pay_d', null, 'payment', 'refunded', 4000, at(3)],
      ['txn_nnn', 'pay_c', null, 'failed', 'failed', 3000, at(2)],
      ['txn_mmm', 'pay_b', null, 'payment', 'succeeded', 2000, at(2)],
      ['txn_zzz', 'pay_a', null, 'payment', 'pending', 1000, at(1)],
    ]);
    expect(await knex('transactions').pluck('id')).toEqual(['txn_rrr']);
    expect((await transactions.list('mch_v11', { type: 'failed' }, page)).total).toBe(1);

    await knex('payments').where({ id: 'pay_a' }).update({ status: 'expired' });
    const failed = await transactions.list('mch_v11', { type: 'failed' }, page);
    expect([failed.total, failed.items.map((t) => t.id)]).toEqual([2, ['txn_nnn', 'txn_zzz']]);
    expect((await transactions.list('mch_v11', { status: 'pending' }, page)).total).toBe(0);
    expect((await transactions.list('mch_v11', {}, page)).total).toBe(5);
  }, 60_000);
});
