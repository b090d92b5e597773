import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { expireOverduePayments } from '../../src/app/expire-overdue-payments.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-20T08:00:00.000Z'));
const { server, api } = usingTestServer({ clock });

/** The database refuses a refund's ledger entry, the last write of its transaction, until the returned undo runs. */
async function refuseRefundEntries(knex: Knex): Promise<() => Promise<void>> {
  await knex.raw(`CREATE FUNCTION refuse_refund_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full on ledger'; END $$`);
  await knex.raw(
    `CREATE TRIGGER refuse_refund_entry BEFORE INSERT ON balance_transactions FOR EACH ROW WHEN (NEW.type = 'refund') EXECUTE FUNCTION refuse_refund_entry()`,
  );
  return async () => {
    await knex.raw('DROP TRIGGER refuse_refund_entry ON balance_transactions');
    await knex.raw('DROP FUNCTION refuse_refund_entry()');
  };
}

describe('internal failures', () => {
  it('answer 500 internal_error without a stack trace, leave nothing half-written, and are not stored for replay', async () => {
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 20000, currency: 'THB' });
    await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`);
    const repair = await refuseRefundEntries(server.running.runtime.db.knex);
    const failed = await api.post('/v1/refunds', { payment_id: qr.body.payment_id }, { idempotencyKey: 'refund-during-outage' });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ code: 'internal_error', type: 'api_error', request_id: failed.headers.get('request-id') });
    expect(failed.text).not.toMatch(/disk full|\.ts:\d+/);

    const payment = await api.get(`/Thai/v1/payments/${qr.body.payment_id}`);
    expect(payment.body).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect((await api.get('/Thai/v1/transactions?type=refund')).body.total).toBe(0);

    await repair();
    const retried = await api.post('/v1/refunds', { payment_id: qr.body.payment_id }, { idempotencyKey: 'refund-during-outage' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await api.get(`/Thai/v1/payments/${qr.body.payment_id}`)).body.status).toBe('refunded');
  });

  it('purges idempotency keys older than 24 hours', async () => {
    await api.post('/Thai/v1/qr-codes', { amount: 20000, currency: 'THB' }, { idempotencyKey: 'purge-me' });
    const knex = server.running.runtime.db.knex;
    const stored = () => knex('idempotency_keys').where({ key: 'purge-me' }).count<{ count: number }[]>({ count: '*' });
    expect(Number((await stored())[0]!.count)).toBe(1);
    clock.advance(24 * 3600_000 + 1);
    await expireOverduePayments(server.running.runtime.services);
    expect(Number((await stored())[0]!.count)).toBe(0);
  });
});
