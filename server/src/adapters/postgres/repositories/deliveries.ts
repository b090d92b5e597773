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

export const toDelivery = (row: DeliveryRow): Delivery => ({
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

export const deliveryRepository = (db: Db): DeliveryRepository => ({
  async insertMany(deliveries) {
    if (deliveries.length === 0) return;
    await db<DeliveryRow>('webhook_deliveries').insert(
      deliveries.map((d) => ({
        id: d.id,
        merchant_id: d.merchantId,
        webhook_id: d.webhookId,
        event_id: d.eventId,
        event_kind: d.eventKind,
        status: d.status,
        attempts: d.attempts,
        last_response_status: d.lastResponseStatus,
        last_error: d.lastError,
        next_attempt_at: d.nextAttemptAt,
        delivered_at: d.deliveredAt,
        created_at: d.createdAt,
      })),
    );
    // Delivered to listening dispatchers when (and only if) this transaction commits.
    await db.raw('SELECT pg_notify(?, ?)', [deliveriesChannel, '']);
  },
  async list(merchantId, webhookId, page) {
    return pageOf(db('webhook_deliveries').where({ merchant_id: merchantId, webhook_id: webhookId }), page, toDelivery);
  },
});
