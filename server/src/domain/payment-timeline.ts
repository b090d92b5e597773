import type { UnmatchedBankTransaction } from './bank-transaction.js';
import type { EventPayload } from './events.js';
import type { Payment, PaymentStatus } from './payment.js';
import type { Refund } from './refund.js';
import type { Delivery } from './webhook.js';

/** One line of a payment's history, as its dashboard page shows it. */
export type TimelineEntry =
  | { kind: 'created'; at: Date }
  | { kind: 'status'; at: Date; status: PaymentStatus }
  | { kind: 'refund'; at: Date; refund: Refund }
  | { kind: 'refund_outcome'; at: Date; refundId: string; status: 'succeeded' | 'failed' }
  | { kind: 'delivery'; at: Date; delivery: Delivery }
  | { kind: 'unmatched'; at: Date; unmatched: UnmatchedBankTransaction };

export interface PaymentHistory {
  payment: Payment;
  refunds: readonly Refund[];
  events: readonly EventPayload[];
  deliveries: readonly Delivery[];
  unmatched: readonly UnmatchedBankTransaction[];
}

const statusOfEvent = (event: EventPayload): PaymentStatus | null => {
  if (!event.event.startsWith('payment.')) return null;
  const status = event.data.status;
  return typeof status === 'string' ? (status as PaymentStatus) : null;
};

/** What comes first at one instant: a refund before the status it leads to, a change before the deliveries announcing it. */
const rank = (entry: TimelineEntry): number =>
  ({ created: 0, status: entry.kind === 'status' && entry.status === 'refunded' ? 3 : 1, refund: 2, refund_outcome: 4, delivery: 5, unmatched: 6 })[entry.kind];

/**
 * Created, each status change, each refund and its outcome, each webhook delivery, money that did not fit: oldest
 * first. Status changes come from the payment's events; once those are purged, the payment's own times stand in.
 */
export function paymentTimeline(history: PaymentHistory): TimelineEntry[] {
  const { payment } = history;
  const entries: TimelineEntry[] = [{ kind: 'created', at: payment.createdAt }];
  const announced = new Set<PaymentStatus>(['pending']);
  for (const event of history.events) {
    const status = statusOfEvent(event);
    const at = new Date(event.timestamp);
    if (status && status !== 'pending') {
      entries.push({ kind: 'status', at, status });
      announced.add(status);
    } else if (event.event === 'refund.completed' || event.event === 'refund.failed') {
      const outcome = event.event === 'refund.completed' ? 'succeeded' : 'failed';
      entries.push({ kind: 'refund_outcome', at, refundId: String(event.data.refund_id), status: outcome });
    }
  }
  if (!announced.has(payment.status) && payment.status !== 'refunded')
    entries.push({ kind: 'status', at: payment.completedAt ?? payment.updatedAt, status: payment.status });
  if (payment.status === 'refunded') entries.push({ kind: 'status', at: payment.updatedAt, status: 'refunded' });
  for (const refund of history.refunds) entries.push({ kind: 'refund', at: refund.createdAt, refund });
  for (const delivery of history.deliveries) entries.push({ kind: 'delivery', at: delivery.deliveredAt ?? delivery.createdAt, delivery });
  for (const unmatched of history.unmatched) entries.push({ kind: 'unmatched', at: unmatched.recordedAt, unmatched });
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime() || rank(a) - rank(b));
}
