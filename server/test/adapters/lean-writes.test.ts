import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventKind } from '../../src/domain/events.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

// Migration 0011_lean_writes: the guard that lets the hot tables name merchants without a foreign key, and the one
// row-level trigger that counts and fans out events.

let knex: Knex;

// The dispatcher stays off: the deliveries the fan-out writes are read as rows, never sent.
const { server } = usingTestServer({ env: { WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
beforeAll(async () => {
  knex = server.running.runtime.db.knex;
});

const newMerchant = async (): Promise<{ id: string; api: ApiClient }> => {
  const merchant = await server.merchant();
  return { id: merchant.id, api: apiClient(server.url, merchant) };
};

describe('merchants', () => {
  it('cannot be deleted, nor their id changed, nor the table truncated, so no row names a merchant that is gone', async () => {
    const { id, api } = await newMerchant();
    const paymentId = (await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' })).body.payment_id as string;
    // Even a merchant no other table still references (api_keys aside) cannot go: the guard does not rely on keys.
    await knex('api_keys').where({ merchant_id: id }).update({ revoked_at: new Date() });
    await expect(knex('merchants').where({ id }).delete()).rejects.toThrow(/never deleted/);
    await expect(
      knex('merchants')
        .where({ id })
        .update({ id: `${id}_renamed` }),
    ).rejects.toThrow(/never deleted/);
    await expect(
      knex.transaction(async (trx) => {
        await trx.raw('TRUNCATE merchants CASCADE');
        throw new Error('TRUNCATE went through'); // rolls it back, and fails the test
      }),
    ).rejects.toThrow(/never deleted/);
    // Other columns still change, and the payment still names its merchant.
    await knex('merchants').where({ id }).update({ id, name: 'Renamed Shop' });
    expect((await knex('merchants').where({ id }).first()).name).toBe('Renamed Shop');
    expect((await knex('payments').where({ id: paymentId }).first()).merchant_id).toBe(id);
  });
});

describe('events written several in one statement', () => {
  it('are each counted and fanned out to the webhooks subscribed to their kind; test events are neither', async () => {
    const { id, api } = await newMerchant();
    const register = async (events: string[]) => {
      const res = await api.post('/Thai/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events });
      expect(res.status, res.text).toBe(200);
      return res.body.webhook_id as string;
    };
    const succeededOnly = await register(['payment.succeeded']);
    const both = await register(['payment.succeeded', 'payment.failed']);
    const disabled = await register(['payment.succeeded']);
    expect((await api.send('PATCH', `/Thai/v1/webhooks/${disabled}`, { status: 'disabled' })).status).toBe(200);

    const now = new Date();
    const event = (n: number, kind: string) => ({
      id: `evt_bulk_${id}_${n}`,
      merchant_id: id,
      kind,
      payload: JSON.stringify({ id: n, event: kind }),
      created_at: now,
    });
    await knex('events').insert([
      event(1, 'payment.succeeded'),
      event(2, 'payment.succeeded'),
      event(3, 'payment.failed'),
      event(4, 'payment.pending'),
      event(5, 'webhook.test'),
    ]);

    // The totals GET /events answers (its payloads here are not real events, so read through the event log).
    const total = async (kind?: EventKind) => (await server.running.runtime.services.uow.repos.eventLog.list(id, { kind }, { limit: 1, offset: 0 })).total;
    expect(await total()).toBe(4);
    expect(await total('payment.succeeded')).toBe(2);
    expect(await total('payment.failed')).toBe(1);
    expect(await total('payment.pending')).toBe(1);
    expect(Number((await knex('event_totals').where({ merchant_id: id, kind: 'webhook.test' }).sum({ n: 'n' }))[0]?.n ?? 0)).toBe(0);

    const deliveries = await knex('webhook_deliveries')
      .where({ merchant_id: id })
      .orderBy(['webhook_id', 'event_id'])
      .select('webhook_id', 'event_id', 'event_kind', 'status');
    const expected = (
      [
        [succeededOnly, 1, 'payment.succeeded'],
        [succeededOnly, 2, 'payment.succeeded'],
        [both, 1, 'payment.succeeded'],
        [both, 2, 'payment.succeeded'],
        [both, 3, 'payment.failed'],
      ] as const
    ).map(([webhookId, n, kind]) => ({ webhook_id: webhookId, event_id: `evt_bulk_${id}_${n}`, event_kind: kind, status: 'pending' }));
    const byKey = (d: { webhook_id: string; event_id: string }) => `${d.webhook_id}/${d.event_id}`;
    expect(deliveries.map(byKey).sort()).toEqual(expected.map(byKey).sort());
    expect(deliveries).toEqual(expect.arrayContaining(expected));

    // Deleted several in one statement (as the purge does), they leave the totals too.
    await knex('webhook_deliveries').where({ merchant_id: id }).delete();
    await knex('events')
      .whereIn(
        'id',
        [1, 3, 5].map((n) => `evt_bulk_${id}_${n}`),
      )
      .delete();
    expect(await total()).toBe(2);
    expect(await total('payment.succeeded')).toBe(1);
    expect(await total('payment.failed')).toBe(0);
  });
});
