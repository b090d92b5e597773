import type { Payment } from './payment.js';
import type { Refund } from './refund.js';
import type { Withdrawal } from './withdrawal.js';

export const eventKinds = [
  'payment.succeeded',
  'payment.failed',
  'payment.pending',
  'withdrawal.processed',
  'withdrawal.succeeded',
  'withdrawal.failed',
  'withdrawal.pending',
  'refund.completed',
  'refund.failed',
] as const;

export type EventKind = (typeof eventKinds)[number];

export const isEventKind = (value: string): value is EventKind => (eventKinds as readonly string[]).includes(value);

/** The payload merchants receive, byte for byte: `{id, event, data, timestamp}`. */
export interface EventPayload {
  id: string;
  event: EventKind;
  data: Record<string, unknown>;
  timestamp: string;
}

export interface DomainEvent {
  id: string;
  merchantId: string;
  kind: EventKind;
  payload: EventPayload;
  createdAt: Date;
}

/** Which event a payment's new state announces; `expired` is announced as payment.failed (data.status tells). */
export function paymentEventKind(payment: Payment): EventKind | null {
  switch (payment.status) {
    case 'pending':
      return 'payment.pending';
    case 'succeeded':
      return 'payment.succeeded';
    case 'failed':
    case 'expired':
      return 'payment.failed';
    case 'refunded':
      return null; // announced by refund.completed
  }
}

/** An event and its webhook payload `{id, event, data, timestamp}`: the events API reads the payload as it was sent. */
function domainEvent(id: string, merchantId: string, kind: EventKind, now: Date, data: EventPayload['data']): DomainEvent {
  return { id, merchantId, kind, createdAt: now, payload: { id, event: kind, timestamp: now.toISOString(), data } };
}

export function paymentEvent(id: string, kind: EventKind, payment: Payment, now: Date): DomainEvent {
  return domainEvent(id, payment.merchantId, kind, now, {
    payment_id: payment.id,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    reference: payment.reference,
    till_id: payment.tillId,
    metadata: payment.metadata,
  });
}

export function refundEvent(id: string, refund: Refund, payment: Payment, now: Date): DomainEvent {
  const kind: EventKind = refund.status === 'failed' ? 'refund.failed' : 'refund.completed';
  return domainEvent(id, refund.merchantId, kind, now, {
    refund_id: refund.id,
    payment_id: refund.paymentId,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
    metadata: payment.metadata,
  });
}

export function withdrawalEvent(id: string, withdrawal: Withdrawal, now: Date): DomainEvent {
  return domainEvent(id, withdrawal.merchantId, `withdrawal.${withdrawal.status}`, now, {
    withdrawal_id: withdrawal.id,
    status: withdrawal.status,
    amount: withdrawal.amount,
    currency: withdrawal.currency,
    failure_code: withdrawal.failureCode,
  });
}
