import type { Knex } from 'knex';
import type { AttemptResult } from '../../../domain/delivery-schedule.js';
import type { ClaimedDelivery, DeliveryQueue } from '../../../ports/webhook-delivery.js';
import { webhookRepository } from './webhooks.js';

interface ClaimedRow {
  live: boolean;
  id: string;
  merchant_id: string;
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
 * different rows), the attempt is counted, and the row is leased: next_attempt_at and leased_until move to the lease's
 * end. That is when the attempt is retried should this dispatcher die before recording it; until then no other
 * attempt starts. A redelivery asked for earlier is this attempt. Rows of webhooks disabled or deleted meanwhile fail.
 *
 * Fair shares: of the oldest due rows (`scan` of them, merchants already at their share left out), each merchant gets
 * only as many as its share has room for, so one merchant's backlog or hanging endpoints never take every slot.
 */
const CLAIM_DUE = `
WITH busy AS (
  SELECT * FROM unnest(:busyMerchants::text[], :busyCounts::int[]) AS b(merchant_id, in_flight)
), candidates AS (
  SELECT d.id, d.merchant_id, d.next_attempt_at FROM webhook_deliveries d
  WHERE d.status = 'pending' AND d.next_attempt_at <= :now AND (d.leased_until IS NULL OR d.leased_until <= :now)
    AND NOT EXISTS (SELECT 1 FROM busy b WHERE b.merchant_id = d.merchant_id AND b.in_flight >= :perMerchant)
  ORDER BY d.next_attempt_at
  LIMIT :scan
), fair AS (
  SELECT c.id, c.next_attempt_at
  FROM (SELECT c.*, row_number() OVER (PARTITION BY c.merchant_id ORDER BY c.next_attempt_at, c.id) AS place FROM candidates c) c
  LEFT JOIN busy b ON b.merchant_id = c.merchant_id
  WHERE c.place + coalesce(b.in_flight, 0) <= :perMerchant
), due AS (
  SELECT d.id, (w.status = 'active' AND w.deleted_at IS NULL) AS live
  FROM fair f JOIN webhook_deliveries d ON d.id = f.id JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.status = 'pending' AND d.next_attempt_at <= :now AND (d.leased_until IS NULL OR d.leased_until <= :now)
  ORDER BY f.next_attempt_at
  LIMIT :limit
  FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d SET
  attempts = CASE WHEN due.live THEN d.attempts + 1 ELSE d.attempts END,
  status = CASE WHEN due.live THEN d.status ELSE 'failed' END,
  next_attempt_at = CASE WHEN due.live THEN :leaseEnd::timestamptz ELSE NULL END,
  leased_until = CASE WHEN due.live THEN :leaseEnd::timestamptz ELSE NULL END,
  redeliver_requested = false,
  last_error = CASE WHEN due.live THEN d.last_error ELSE :retired END
FROM due, webhooks w, events e
WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
RETURNING due.live, d.id, d.merchant_id, d.webhook_id, d.event_id, d.attempts, w.url, w.secret,
  ARRAY(SELECT s.secret FROM webhook_earlier_secrets s WHERE s.webhook_id = w.id AND s.expires_at > :now ORDER BY s.retired_at DESC) AS earlier_secrets,
  e.payload`;

/** Due rows looked at per claim, per slot to fill: enough to reach past one merchant's backlog to the others. */
const SCAN_PER_SLOT = 4;

/*
 * The attempt's result, or the redelivery's when one was asked for while the attempt was in flight; the lease ends.
 * Only the latest attempt may write: a dispatcher whose lease ran out finds the row moved on.
 */
const RECORD_ATTEMPT = `
UPDATE webhook_deliveries SET
  status = CASE WHEN redeliver_requested THEN :redeliveryStatus ELSE :status END,
  last_response_status = :lastResponseStatus,
  last_error = :lastError,
  next_attempt_at = CASE WHEN redeliver_requested THEN :redeliveryNextAttemptAt::timestamptz ELSE :nextAttemptAt::timestamptz END,
  delivered_at = CASE WHEN redeliver_requested THEN :redeliveryDeliveredAt::timestamptz ELSE :deliveredAt::timestamptz END,
  redeliver_requested = false,
  leased_until = NULL
WHERE id = :id AND attempts = :attempt AND status = 'pending'
RETURNING status, next_attempt_at, delivered_at`;

interface RecordedRow {
  status: AttemptResult['status'];
  next_attempt_at: Date | null;
  delivered_at: Date | null;
}

export const deliveryQueue = (knex: Knex): DeliveryQueue => ({
  async claimDue(now, limit, leaseMs, share) {
    const scan = limit * SCAN_PER_SLOT;
    const busy = [...(share?.inFlight ?? [])];
    const result = await knex.raw<{ rows: ClaimedRow[] }>(CLAIM_DUE, {
      now,
      limit,
      scan,
      perMerchant: share?.perMerchant ?? scan, // without shares, any merchant may have every row looked at
      busyMerchants: busy.map(([merchantId]) => merchantId),
      busyCounts: busy.map(([, n]) => n),
      leaseEnd: new Date(now.getTime() + leaseMs),
      retired: RETIRED,
    });
    return result.rows
      .filter((row) => row.live)
      .map(
        (row): ClaimedDelivery => ({
          deliveryId: row.id,
          merchantId: row.merchant_id,
          webhookId: row.webhook_id,
          url: row.url,
          secret: row.secret,
          earlierSecrets: row.earlier_secrets,
          eventId: row.event_id,
          payload: row.payload,
          attempt: row.attempts,
        }),
      );
  },

  async recordAttempt(delivery, result, redelivery = result) {
    const record = async (db: Knex): Promise<AttemptResult | null> => {
      const { rows } = await db.raw<{ rows: RecordedRow[] }>(RECORD_ATTEMPT, {
        id: delivery.deliveryId,
        attempt: delivery.attempt,
        status: result.status,
        lastResponseStatus: result.lastResponseStatus,
        lastError: result.lastError,
        nextAttemptAt: result.nextAttemptAt,
        deliveredAt: result.deliveredAt,
        redeliveryStatus: redelivery.status,
        redeliveryNextAttemptAt: redelivery.nextAttemptAt,
        redeliveryDeliveredAt: redelivery.deliveredAt,
      });
      const [row] = rows;
      return row ? { ...result, status: row.status, nextAttemptAt: row.next_attempt_at, deliveredAt: row.delivered_at } : null;
    };
    if (!result.disableWebhook) return record(knex);
    return knex.transaction(async (trx) => {
      const recorded = await record(trx);
      if (recorded) await webhookRepository(trx).disable(delivery.webhookId);
      return recorded;
    });
  },

  async nextDueAt(excluding = []) {
    const pending = knex('webhook_deliveries').where({ status: 'pending' });
    if (excluding.length > 0) pending.whereNotIn('merchant_id', excluding);
    const row = await pending.orderBy('next_attempt_at').first<{ next_attempt_at: Date } | undefined>('next_attempt_at');
    return row?.next_attempt_at ?? null;
  },
});
