import type { Knex } from 'knex';
import { eventKinds, type EventPayload } from '../../../domain/events.js';
import { testEventKind } from '../../../domain/test-event.js';
import type { EventLog } from '../../../ports/repositories.js';
import { definedOnly, newestAcross, pageOf, whereCreatedWithin, type Db } from './query.js';

interface EventRow {
  payload: string;
}

// The stored bytes are what every delivery signs and sends, so the event reads exactly as its webhook payload.
const toPayload = (row: EventRow): EventPayload => JSON.parse(row.payload) as EventPayload;

/*
 * Old events go with their deliveries in one statement; an event still owed a delivery stays. SKIP LOCKED: concurrent
 * purgers take different rows instead of waiting on (or deadlocking with) each other.
 */
const PURGE = `
WITH old AS (
  SELECT e.id FROM events e
  WHERE e.created_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
  ORDER BY e.created_at
  LIMIT ?
  FOR UPDATE OF e SKIP LOCKED
), gone AS (
  DELETE FROM webhook_deliveries d USING old WHERE d.event_id = old.id
)
DELETE FROM events e USING old WHERE e.id = old.id
RETURNING e.id`;

export const eventLog = (db: Db): EventLog => {
  // Every event but the test events (which go to one endpoint and are never listed).
  const listable = (merchantId: string) => db('events').where({ merchant_id: merchantId }).whereNot({ kind: testEventKind });
  return {
    async find(merchantId, id) {
      const row = await listable(merchantId).where({ id }).first<EventRow | undefined>('payload');
      return row ? toPayload(row) : null;
    },
    async list(merchantId, filter, page) {
      // Every listable kind is named, so that a date range is a range scan per kind of the one index.
      const query = whereCreatedWithin(
        db('events')
          .where({ merchant_id: merchantId })
          .whereIn('kind', filter.kind ? [filter.kind] : eventKinds),
        filter,
      );
      // Without a date range the total is the sum of the maintained counts, not a count of every row.
      const counts = db('event_totals').where(definedOnly({ merchant_id: merchantId, kind: filter.kind }));
      const total =
        filter.startDate || filter.endDate ? undefined : counts.sum<{ n: number | string | null }[]>({ n: 'n' }).then((rows) => Number(rows[0]?.n ?? 0));
      // One index, events_by_merchant_kind (migration 0028_one_list_index_each): without a kind, every listable kind's
      // part of it is merged (the test events' kind is not one of them).
      const ids = filter.kind
        ? undefined
        : newestAcross(
            db,
            'events',
            eventKinds.map((kind) => ({ merchant_id: merchantId, kind })),
            filter,
            page,
          );
      return pageOf(db, 'events', query, page, toPayload, { total, ids });
    },
    async ofPayment(merchantId, payment) {
      // The payment's first event (payment.pending) is written with the payment, at its creation time: found by kind and
      // time, so that QR creation does not pay for the index events_by_payment (migration 0020), which holds the rest.
      const byPayment = `(((payload)::json -> 'data') ->> 'payment_id') = ?`;
      const columns = ['payload', 'created_at', 'id'];
      const rows = await db
        .select<EventRow[]>(columns)
        .from('events')
        .where({ merchant_id: merchantId, kind: 'payment.pending', created_at: payment.createdAt })
        .whereRaw(byPayment, [payment.id])
        .unionAll((later) => {
          void later
            .select(columns)
            .from('events')
            .where({ merchant_id: merchantId })
            .whereRaw(byPayment, [payment.id])
            .whereRaw(`(kind LIKE 'payment.%' OR kind LIKE 'refund.%') AND kind <> 'payment.pending'`);
        })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(toPayload);
    },
    async purgeOlderThan(cutoff, limit) {
      const result = await (db as Knex).raw<{ rows: unknown[] }>(PURGE, [cutoff, limit]);
      return result.rows.length;
    },
  };
};
