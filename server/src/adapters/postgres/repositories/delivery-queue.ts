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
 * The merchants with pending deliveries, found by skipping through deliveries_due_by_merchant: one index descent per
 * merchant, however many rows each has pending.
 */
const PENDING_MERCHANTS = `
pending_merchants AS (
  (SELECT d.merchant_id FROM webhook_deliveries d WHERE d.status = 'pending' ORDER BY d.merchant_id LIMIT 1)
  UNION ALL
  SELECT (SELECT d.merchant_id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.merchant_id > m.merchant_id ORDER BY d.merchant_id LIMIT 1)
  FROM pending_merchants m WHERE m.merchant_id IS NOT NULL
)`;

/** Whether the delivery's webhook may still be sent to (`w`): a claimed row of a disabled or deleted one fails. */
const LIVE = `(w.status = 'active' AND w.deleted_at IS NULL)`;

const DUE = `d.status = 'pending' AND d.next_attempt_at <= :now AND (d.leased_until IS NULL OR d.leased_until <= :now)`;

/*
 * One statement, so no transaction stays open: due rows are locked with SKIP LOCKED (concurrent dispatchers take
 * different rows), the attempt is counted, and the row is leased: next_attempt_at and leased_until move to the lease's
 * end. That is when the attempt is retried should this dispatcher die before recording it; until then no other
 * attempt starts. A redelivery asked for earlier is this attempt. Rows of webhooks disabled or deleted meanwhile fail.
 *
 * Merchants first, then rows: each merchant with due deliveries offers its oldest ones, as many as its share has room
 * for, and the slots go round the merchants (every merchant's oldest, then every merchant's second oldest, ...). A
 * merchant's backlog, however long and old, never fills the claim another merchant's due delivery needs. Rows offered
 * beyond `limit` stay locked only for this statement. No step reads past a merchant's backlog, and none relies on
 * planner statistics (the embedded database has none): the offers are materialised once, and the update finds its
 * rows by primary key.
 */
const CLAIM_DUE = `
WITH RECURSIVE ${PENDING_MERCHANTS}, busy AS (
  SELECT * FROM unnest(:busyMerchants::text[], :busyCounts::int[]) AS b(merchant_id, in_flight)
), offered AS MATERIALIZED (
  SELECT o.id, o.merchant_id, o.webhook_id, o.next_attempt_at
  FROM pending_merchants m
  LEFT JOIN busy b ON b.merchant_id = m.merchant_id
  CROSS JOIN LATERAL (
    SELECT d.id, d.merchant_id, d.webhook_id, d.next_attempt_at
    FROM webhook_deliveries d
    WHERE d.merchant_id = m.merchant_id AND ${DUE}
    ORDER BY d.next_attempt_at, d.id
    LIMIT greatest(0, least(:perMerchant - coalesce(b.in_flight, 0), :limit))
    FOR UPDATE OF d SKIP LOCKED
  ) o
  WHERE m.merchant_id IS NOT NULL
), due AS (
  SELECT o.id
  FROM (SELECT o.*, row_number() OVER (PARTITION BY o.merchant_id ORDER BY o.next_attempt_at, o.id) AS place FROM offered o) o
  ORDER BY o.place, o.next_attempt_at
  LIMIT :limit
)
UPDATE webhook_deliveries d SET
  attempts = CASE WHEN ${LIVE} THEN d.attempts + 1 ELSE d.attempts END,
  status = CASE WHEN ${LIVE} THEN d.status ELSE 'failed' END,
  next_attempt_at = CASE WHEN ${LIVE} THEN :leaseEnd::timestamptz ELSE NULL END,
  leased_until = CASE WHEN ${LIVE} THEN :leaseEnd::timestamptz ELSE NULL END,
  redeliver_requested = false,
  last_error = CASE WHEN ${LIVE} THEN d.last_error ELSE :retired END
FROM webhooks w, events e
WHERE d.id = ANY(ARRAY(SELECT due.id FROM due)) AND w.id = d.webhook_id AND e.id = d.event_id
RETURNING ${LIVE} AS live, d.id, d.merchant_id, d.webhook_id, d.event_id, d.attempts, w.url, w.secret,
  ARRAY(SELECT s.secret FROM webhook_earlier_secrets s WHERE s.webhook_id = w.id AND s.expires_at > :now ORDER BY s.retired_at DESC) AS earlier_secrets,
  e.payload`;

/** The earliest pending delivery of any merchant but the excluded: each merchant's first, read from its end of the index. */
const NEXT_DUE = `
WITH RECURSIVE ${PENDING_MERCHANTS}
SELECT min(first.next_attempt_at) AS next_attempt_at
FROM pending_merchants m
CROSS JOIN LATERAL (
  SELECT d.next_attempt_at FROM webhook_deliveries d
  WHERE d.merchant_id = m.merchant_id AND d.status = 'pending'
  ORDER BY d.next_attempt_at LIMIT 1
) first
WHERE m.merchant_id IS NOT NULL AND m.merchant_id <> ALL(:excluding::text[])`;

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
    const busy = [...(share?.inFlight ?? [])];
    const result = await knex.raw<{ rows: ClaimedRow[] }>(CLAIM_DUE, {
      now,
      limit,
      perMerchant: share?.perMerchant ?? limit, // without shares, one merchant may take every slot
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
    const { rows } = await knex.raw<{ rows: { next_attempt_at: Date | null }[] }>(NEXT_DUE, { excluding: [...excluding] });
    return rows[0]?.next_attempt_at ?? null;
  },
});
