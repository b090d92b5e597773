import type { Delivery } from '../../../domain/webhook.js';
import type { DeliveryRepository } from '../../../ports/repositories.js';
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

export const deliveryRepository = (db: Db): DeliveryRepository => ({
  async list(merchantId, webhookId, page) {
    return pageOf(db, 'webhook_deliveries', db('webhook_deliveries').where({ merchant_id: merchantId, webhook_id: webhookId }), page, toDelivery);
  },
});
