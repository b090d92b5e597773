import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLog } from '../../src/adapters/postgres/repositories/event-log.js';
import { paymentRepository } from '../../src/adapters/postgres/repositories/payments.js';
import { transactionRepository } from '../../src/adapters/postgres/repositories/transactions.js';
import { eventKinds } from '../../src/domain/events.js';
import { paymentStatuses } from '../../src/domain/payment.js';
import { paymentTransactionId, paymentTransactionState, transactionStatuses, transactionTypes } from '../../src/domain/transaction.js';
import { openFreshDatabase, type OpenedDatabase } from '../support/databases.js';

// Migration 0028_one_list_index_each: a list without a filter merges one index range per status, kind or type and
// status. Its pages must be exactly the rows newest first, ties broken by id descending, as one index gave them.
// Transactions (migration 0030) merge two sources: each payment's own, read from the payment (its id derived from
// the payment's, or stored on one older than the migration), and refunds' rows, tied with payments' on purpose.

let opened: OpenedDatabase;
let knex: Knex;
const MERCHANT = 'mch_merged';
const START = Date.parse('2026-11-01T00:00:00.000Z');
// Every third row shares its instant with the one before, so ties between groups are broken by id.
const instant = (n: number) => new Date(START + Math.floor(n / 3) * 60_000 + (n % 3 === 2 ? 0 : (n % 3) * 1_000));
const idOf = (prefix: string, n: number) => `${prefix}_${((n * 7919) % 1000).toString().padStart(4, '0')}${n}`;

interface Listed {
  id: string;
  /** Where it sorts among ties, when not by its id: a payment's transaction that kept a stored id (migration 0030). */
  sortId?: string;
  at: Date;
  group: Record<string, string>;
}
const written: Record<'payments' | 'transactions' | 'events', Listed[]> = { payments: [], transactions: [], events: [] };

beforeAll(async () => {
  opened = await openFreshDatabase();
  knex = opened.db.knex;
  await knex('merchants').insert({ id: MERCHANT, name: 'Merged', mode: 'test', created_at: new Date(START) });
  const refundStatuses = ['pending', 'succeeded', 'failed'] as const;
  for (let n = 0; n < 60; n++) {
    const at = instant(n);
    const payment = { id: idOf('pay', n), at, group: { status: paymentStatuses[n % paymentStatuses.length]! } };
    const storedId = n % 5 === 1 ? idOf('txn', n + 500) : null; // one made before migration 0030 keeps its id
    const transaction = {
      id: storedId ?? paymentTransactionId(payment.id),
      sortId: paymentTransactionId(payment.id),
      at,
      group: paymentTransactionState(payment.group),
    };
    const event = { id: idOf('evt', n), at, group: { kind: eventKinds[(n * 4) % eventKinds.length]! } };
    written.payments.push(payment);
    written.transactions.push(transaction);
    written.events.push(event);
    await knex('payments').insert({
      id: payment.id,
      merchant_id: MERCHANT,
      status: payment.group.status,
      amount: 100,
      currency: 'THB',
      metadata: '{}',
      created_at: at,
      updated_at: at,
      transaction_id: storedId,
    });
    if (n % 4 === 0) {
      // A refund's transaction at its payment's instant: the tie between the two sources is broken by id.
      const refund = { id: idOf('txn', n + 1000), at, group: { type: 'refund', status: refundStatuses[(n / 4) % refundStatuses.length]! } };
      written.transactions.push(refund);
      const row = { merchant_id: MERCHANT, payment_id: payment.id, amount: -50, currency: 'THB', status: refund.group.status, created_at: at };
      await knex('refunds').insert({ id: idOf('rfd', n), ...row });
      await knex('transactions').insert({ id: refund.id, refund_id: idOf('rfd', n), type: 'refund', ...row });
    }
    await knex('events').insert({ id: event.id, merchant_id: MERCHANT, kind: event.group.kind, payload: JSON.stringify({ id: event.id }), created_at: at });
  }
  // Never listed: a test event, and another merchant's rows.
  await knex('events').insert({
    id: 'evt_test',
    merchant_id: MERCHANT,
    kind: 'webhook.test',
    payload: JSON.stringify({ id: 'evt_test' }),
    created_at: instant(70),
  });
  await knex('merchants').insert({ id: 'mch_other', name: 'Other', mode: 'test', created_at: new Date(START) });
  await knex('payments').insert({
    id: 'pay_other',
    merchant_id: 'mch_other',
    status: 'pending',
    amount: 1,
    currency: 'THB',
    metadata: '{}',
    created_at: instant(5),
    updated_at: instant(5),
  });
}, 60_000);
afterAll(async () => opened?.close());

/** What a page must hold: the matching rows newest first, ties broken by id descending. */
function expected(
  rows: Listed[],
  match: Partial<Record<string, string>>,
  range: { startDate?: Date; endDate?: Date },
  offset: number,
  limit: number,
): string[] {
  return rows
    .filter((row) => Object.entries(match).every(([column, value]) => row.group[column] === value))
    .filter((row) => (!range.startDate || row.at >= range.startDate) && (!range.endDate || row.at <= range.endDate))
    .sort((a, b) => b.at.getTime() - a.at.getTime() || ((a.sortId ?? a.id) < (b.sortId ?? b.id) ? 1 : -1))
    .slice(offset, offset + limit)
    .map((row) => row.id);
}

const pages = [
  { offset: 0, limit: 1 },
  { offset: 0, limit: 7 },
  { offset: 5, limit: 3 },
  { offset: 17, limit: 20 },
  { offset: 55, limit: 10 },
  { offset: 100, limit: 5 },
];
const ranges = [{}, { startDate: instant(10), endDate: instant(40) }];

describe('lists merged over one index', () => {
  it('page payments newest first across every status, with and without a status', async () => {
    const payments = paymentRepository(knex);
    for (const range of ranges)
      for (const page of pages)
        for (const status of [undefined, ...paymentStatuses]) {
          const match: Partial<Record<string, string>> = status ? { status } : {};
          const want = expected(written.payments, match, range, page.offset, page.limit);
          const listed = await payments.list(MERCHANT, { ...range, status }, page);
          expect(listed.items.map((p) => p.id)).toEqual(want);
          expect(listed.total).toBe(expected(written.payments, match, range, 0, 1000).length);
          const newest = await payments.listNewest(MERCHANT, { ...range, status }, page);
          expect(newest.items.map((p) => p.id)).toEqual(want);
          expect(newest.more).toBe(expected(written.payments, match, range, page.offset, page.limit + 1).length > page.limit);
        }
  });

  it('page transactions newest first across every type and status, with either filter or both', async () => {
    const transactions = transactionRepository(knex);
    const filters = [
      {},
      ...transactionTypes.map((type) => ({ type })),
      ...transactionStatuses.map((status) => ({ status })),
      { type: 'refund' as const, status: 'succeeded' as const },
      { type: 'payment' as const, status: 'refunded' as const },
      { type: 'failed' as const, status: 'pending' as const }, // no transaction is both
    ];
    const groups = new Map(written.transactions.map((t) => [t.id, t.group]));
    for (const range of ranges)
      for (const page of pages)
        for (const filter of filters) {
          const listed = await transactions.list(MERCHANT, { ...range, ...filter }, page);
          expect(listed.items.map((t) => t.id)).toEqual(expected(written.transactions, filter, range, page.offset, page.limit));
          expect(listed.total).toBe(expected(written.transactions, filter, range, 0, 1000).length);
          expect(listed.items.map((t) => ({ type: t.type, status: t.status }))).toEqual(listed.items.map((t) => groups.get(t.id)));
        }
  });

  it('page events newest first across every kind, without the test events', async () => {
    const events = eventLog(knex);
    for (const range of ranges)
      for (const page of pages)
        for (const kind of [undefined, ...eventKinds]) {
          const listed = await events.list(MERCHANT, { ...range, kind }, page);
          expect(listed.items.map((e) => e.id)).toEqual(expected(written.events, kind ? { kind } : {}, range, page.offset, page.limit));
          if (range !== ranges[0]) expect(listed.total).toBe(expected(written.events, kind ? { kind } : {}, range, 0, 1000).length);
        }
  });
});
