import type { components } from '@payment-qr/contract';
import type { Page } from '../../domain/page.js';
import type { Payment } from '../../domain/payment.js';
import type { QrCode } from '../../domain/qr-code.js';
import type { Refund } from '../../domain/refund.js';
import { displayUrlOf, type Till } from '../../domain/till.js';
import type { Transaction } from '../../domain/transaction.js';
import type { Delivery, Webhook } from '../../domain/webhook.js';

type Schemas = components['schemas'];

// One explicit whitelist per resource: a new column never reaches the wire by accident.

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

const qrImageUrl = (publicBaseUrl: string, qrCodeId: string): string => `${publicBaseUrl}/Thai/qr-codes/${qrCodeId}/image`;
const checkoutUrl = (publicBaseUrl: string, qrCodeId: string): string => `${publicBaseUrl}/Thai/pay/${qrCodeId}`;

export const toQrCodeBody = (qr: QrCode, payment: Payment, publicBaseUrl: string): Schemas['QrCode'] => ({
  qr_code_id: qr.id,
  qr_data: qr.qrData,
  qr_image_url: qrImageUrl(publicBaseUrl, qr.id),
  checkout_url: checkoutUrl(publicBaseUrl, qr.id),
  return_url: qr.returnUrl,
  amount: payment.amount,
  currency: payment.currency,
  reference: payment.reference,
  client_name: payment.clientName,
  client_bank_name: payment.clientBankName,
  client_bank_account: payment.clientBankAccount,
  expires_at: iso(qr.expiresAt),
  created_at: iso(qr.createdAt),
  payment_id: payment.id,
  status: 'pending',
  metadata: payment.metadata,
  till_id: qr.tillId,
});

export const toPaymentBody = (p: Payment): Schemas['Payment'] => ({
  payment_id: p.id,
  till_id: p.tillId,
  qr_code_id: p.qrCodeId,
  status: p.status,
  amount: p.amount,
  currency: p.currency,
  reference: p.reference,
  description: p.description,
  client_name: p.clientName,
  client_bank_name: p.clientBankName,
  client_bank_account: p.clientBankAccount,
  metadata: p.metadata,
  refunded_amount: p.refundedAmount,
  card: p.card ? { brand: p.card.brand, last4: p.card.last4 } : null,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
  completed_at: isoOrNull(p.completedAt),
  expires_at: isoOrNull(p.expiresAt),
});

export const toTillBody = (t: Till, publicBaseUrl: string): Schemas['Till'] => ({
  till_id: t.id,
  name: t.name,
  status: t.status,
  reference: t.reference,
  display_url: displayUrlOf(publicBaseUrl, t),
  static_qr: { qr_data: t.staticQr.qrData, qr_image_url: qrImageUrl(publicBaseUrl, t.staticQr.qrCodeId) },
  created_at: iso(t.createdAt),
});

export const toRefundBody = (r: Refund): Schemas['Refund'] => ({
  refund_id: r.id,
  payment_id: r.paymentId,
  amount: r.amount,
  currency: r.currency,
  status: r.status,
  reason: r.reason,
  created_at: iso(r.createdAt),
});

export const toTransactionBody = (t: Transaction): Schemas['Transaction'] => ({
  transaction_id: t.id,
  payment_id: t.paymentId,
  refund_id: t.refundId,
  type: t.type,
  status: t.status,
  amount: t.amount,
  currency: t.currency,
  created_at: iso(t.createdAt),
});

export const toWebhookBody = (w: Webhook): Schemas['Webhook'] => ({
  webhook_id: w.id,
  url: w.url,
  events: w.events,
  status: w.status,
  created_at: iso(w.createdAt),
});

export const toDeliveryBody = (d: Delivery): Schemas['WebhookDelivery'] => ({
  delivery_id: d.id,
  webhook_id: d.webhookId,
  event_id: d.eventId,
  event_type: d.eventKind,
  status: d.status,
  attempts: d.attempts,
  last_response_status: d.lastResponseStatus,
  last_error: d.lastError,
  next_attempt_at: isoOrNull(d.nextAttemptAt),
  delivered_at: isoOrNull(d.deliveredAt),
  created_at: iso(d.createdAt),
});

/** `{<name>: [...], total, limit, offset}`, the shape of every list. */
export function toListBody<T, K extends string, B>(name: K, page: Page<T>, paging: { limit: number; offset: number }, toBody: (item: T) => B) {
  return { [name]: page.items.map(toBody), total: page.total, limit: paging.limit, offset: paging.offset } as { [P in K]: B[] } & {
    total: number;
    limit: number;
    offset: number;
  };
}
