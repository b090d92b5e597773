import type { Knex } from 'knex';
import type { ClaimedDelivery, DeliveryQueue } from '../../../ports/webhook-delivery.js';
import { webhookRepository } from './webhooks.js';

interface ClaimedRow {
  live: boolean;
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret: string;
  earlier_secrets: string[];
  payload: string;
}

const RETIRED = 'The webhook was disabled or deleted before this delivery succeeded.';

/*
 * One statement, so no transaction stays open: due rows are locked with SKIP LOCKED (concurrent dispatchers take
 * different rows), the attempt is counted, and next_attempt_at moves to the lease's end. That is when the attempt
 * is retried should this dispatcher die before recording it. Rows of webhooks disabled or deleted meanwhile fail.
 */
const CLAIM_DUE = `
WITH due AS (
  SELECT d.id, (w.status = 'active' AND w.deleted_at IS NULL) AS live
  FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.status = 'pending' AND d.next_attempt_at <= ?
  ORDER BY d.next_attempt_at
  LIMIT ?
  FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d SET
  attempts = CASE WHEN due.live THEN d.attempts + 1 ELSE d.attempts END,
  status = CASE WHEN due.live THEN d.status ELSE 'failed' END,
  next_attempt_at = CASE WHEN due.live THEN ?::timestamptz ELSE NULL END,
  last_error = CASE WHEN due.live THEN d.last_error ELSE ? END
FROM due, webhooks w, events e
WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
RETURNING due.live, d.id, d.webhook_id, d.event_id, d.attempts, w.url, w.secret,
  ARRAY(SELECT s.secret FROM webhook_earlier_secrets s WHERE s.webhook_id = w.id AND s.expires_at > ? ORDER BY s.retired_at DESC) AS earlier_secrets,
  e.payload`;

export const deliveryQueue = (knex: Knex): DeliveryQueue => ({
  async claimDue(now, limit, leaseMs) {
    const result = await knex.raw<{ rows: ClaimedRow[] }>(CLAIM_DUE, [now, limit, new Date(now.getTime() + leaseMs), RETIRED, now]);
    return result.rows
      .filter((row) => row.live)
      .map((row): ClaimedDelivery => ({
        deliveryId: row.id,
        webhookId: row.webhook_id,
        url: row.url,
        secret: row.secret,
        earlierSecrets: row.earlier_secrets,
        eventId: row.event_id,
        payload: row.payload,
        attempt: row.attempts,
      }));
  },

  async recordAttempt(delivery, result) {
    // Only the latest attempt may write: a dispatcher whose lease ran out finds the row moved on.
    const record = (db: Knex) =>
      db('webhook_deliveries').where({ id: delivery.deliveryId, attempts: delivery.attempt, status: 'pending' }).update({
        status: result.status,
        last_response_status: result.lastResponseStatus,
        last_error: result.lastError,
        next_attempt_at: result.nextAttemptAt,
        delivered_at: result.deliveredAt,
      });
    if (!result.disableWebhook) return (await record(knex)) > 0;
    return knex.transaction(async (trx) => {
      const changed = await record(trx);
      if (changed > 0) await webhookRepository(trx).disable(delivery.webhookId);
      return changed > 0;
    });
  },

  async nextDueAt() {
    const row = await knex('webhook_deliveries').where({ status: 'pending' }).orderBy('next_attempt_at').first<{ next_attempt_at: Date } | undefined>('next_attempt_at');
    return row?.next_attempt_at ?? null;
  },
});
