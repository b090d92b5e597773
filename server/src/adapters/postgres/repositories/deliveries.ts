import type { Delivery } from '../../../domain/webhook.js';
import type { DeliveryRepository } from '../../../ports/repositories.js';
import { deliveriesChannel } from '../../../ports/webhook-delivery.js';
import { pageOf, type Db } from './query.js';

interface DeliveryRow {
  id: string;
  merchant_id: string;
  webhook_id: string;
  event_id: string;
  event_kind: Delivery['eventKind'];
  status: Delivery['status'];
  attempts: number;
  last_response_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  merchantId: row.merchant_id,
  webhookId: row.webhook_id,
  eventId: row.event_id,
  eventKind: row.event_kind,
  status: row.status,
  attempts: row.attempts,
  lastResponseStatus: row.last_response_status,
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
});

// As the fan-out trigger does: listening dispatchers wake when the transaction commits.
const wakeDispatchers = (db: Db) => db.raw('SELECT pg_notify(?, ?)', [deliveriesChannel, '']);

export const deliveryRepository = (db: Db): DeliveryRepository => ({
  async list(merchantId, webhookId, page) {
    return pageOf(db, 'webhook_deliveries', db('webhook_deliveries').where({ merchant_id: merchantId, webhook_id: webhookId }), page, toDelivery);
  },
  async ofEvents(merchantId, eventIds) {
    if (eventIds.length === 0) return [];
    const rows = await db<DeliveryRow>('webhook_deliveries')
      .where({ merchant_id: merchantId })
      .whereIn('event_id', [...eventIds])
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toDelivery);
  },
  async findById(merchantId, webhookId, id) {
    const row = await db<DeliveryRow>('webhook_deliveries').where({ id, merchant_id: merchantId, webhook_id: webhookId }).first();
    return row ? toDelivery(row) : null;
  },
  async queueTest(event, d) {
    // The fan-out trigger skips the test kind (no webhook can subscribe to it): this is its only delivery.
    await db('events').insert({
      id: event.id,
      merchant_id: event.merchantId,
      kind: event.kind,
      payload: JSON.stringify(event.payload),
      created_at: event.createdAt,
    });
    await db('webhook_deliveries').insert({
      id: d.id,
      merchant_id: d.merchantId,
      webhook_id: d.webhookId,
      event_id: d.eventId,
      event_kind: d.eventKind,
      status: d.status,
      attempts: d.attempts,
      next_attempt_at: d.nextAttemptAt,
      created_at: d.createdAt,
    });
    await wakeDispatchers(db);
  },
  async redeliver(merchantId, webhookId, id, now) {
    // In flight (leased): asked for, sent once the attempt is recorded (or when its lease ends, should its dispatcher die).
    const { rows } = await db.raw<{ rows: DeliveryRow[] }>(
      `UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL,
         redeliver_requested = coalesce(leased_until > :now, false),
         next_attempt_at = CASE WHEN leased_until > :now THEN leased_until ELSE :now END
       WHERE id = :id AND merchant_id = :merchantId AND webhook_id = :webhookId
       RETURNING *`,
      { now, id, merchantId, webhookId },
    );
    const [row] = rows;
    if (!row) return null;
    await wakeDispatchers(db);
    return toDelivery(row);
  },
});
