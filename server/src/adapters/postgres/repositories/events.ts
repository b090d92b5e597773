import { deliveriesChannel } from '../../../ports/webhook-delivery.js';
import type { EventOutbox } from '../../../ports/repositories.js';
import type { Db } from './query.js';

/*
 * One statement: the event row, one pending delivery per active webhook of the merchant subscribed to its kind,
 * and a NOTIFY that reaches listening dispatchers when (and only if) the transaction commits.
 */
const RECORD_EVENT = `
WITH event AS (
  INSERT INTO events (id, merchant_id, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)
  RETURNING id, merchant_id, kind, created_at
), fanned_out AS (
  INSERT INTO webhook_deliveries (id, merchant_id, webhook_id, event_id, event_kind, status, attempts, next_attempt_at, created_at)
  SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.merchant_id, w.id, e.id, e.kind, 'pending', 0, e.created_at, e.created_at
  FROM event e
  JOIN webhooks w ON w.merchant_id = e.merchant_id AND w.status = 'active' AND w.deleted_at IS NULL AND w.events @> jsonb_build_array(e.kind)
  RETURNING 1
)
SELECT count(*)::int AS deliveries, (SELECT pg_notify(?, '') FROM fanned_out LIMIT 1) IS NULL AS quiet FROM fanned_out`;

export const eventOutbox = (db: Db): EventOutbox => ({
  async record(event) {
    const { rows } = await db.raw(RECORD_EVENT, [event.id, event.merchantId, event.kind, JSON.stringify(event.payload), event.createdAt, deliveriesChannel]);
    return Number(rows[0]?.deliveries ?? 0);
  },
});
