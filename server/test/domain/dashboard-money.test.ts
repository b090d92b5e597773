import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/bangkok-day.js';
import type { EventPayload } from '../../src/domain/events.js';
import { parseBaht } from '../../src/domain/money.js';
import type { Payment } from '../../src/domain/payment.js';
import { paymentTimeline } from '../../src/domain/payment-timeline.js';

describe('baht as a person types it', () => {
  it('reads whole baht, two decimals and thousands separators as satang', () => {
    expect(parseBaht('150')).toBe(15_000);
    expect(parseBaht('150.5')).toBe(15_050);
    expect(parseBaht(' 1,500.25 ')).toBe(150_025);
    expect(parseBaht('0.01')).toBe(1);
  });
  it('refuses anything else', () => {
    for (const text of ['', '1.234', '-5', '1,50', '1e3', '฿10', 'abc', '1,5000', '99999999999999999999']) expect(parseBaht(text), text).toBeNull();
  });
});

describe('calendar days', () => {
  it('steps over month and year ends', () => {
    expect(addDays('2026-11-24', -29)).toBe('2026-10-26');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 3, minute));
const payment: Payment = {
  id: 'pay_1',
  merchantId: 'mer_1',
  qrCodeId: 'qr_1',
  tillId: null,
  status: 'succeeded',
  amount: 10_000,
  currency: 'THB',
  reference: 'INV-1',
  description: null,
  clientName: null,
  clientBankName: null,
  clientBankAccount: null,
  metadata: {},
  refundedAmount: 2_500,
  card: null,
  createdAt: at(0),
  updatedAt: at(5),
  completedAt: at(2),
  expiresAt: at(15),
};
const event = (id: string, kind: EventPayload['event'], minute: number, data: Record<string, unknown>): EventPayload => ({
  id,
  event: kind,
  timestamp: at(minute).toISOString(),
  data,
});

describe("a payment's timeline", () => {
  it('orders creation, status changes, refunds and their outcome, and webhook deliveries by time', () => {
    const timeline = paymentTimeline({
      payment,
      refunds: [
        { id: 'rfd_1', merchantId: 'mer_1', paymentId: 'pay_1', amount: 2_500, currency: 'THB', status: 'succeeded', reason: 'late', createdAt: at(5) },
      ],
      events: [
        event('evt_1', 'payment.pending', 0, { payment_id: 'pay_1', status: 'pending' }),
        event('evt_2', 'payment.succeeded', 2, { payment_id: 'pay_1', status: 'succeeded' }),
        event('evt_3', 'refund.completed', 5, { payment_id: 'pay_1', refund_id: 'rfd_1' }),
      ],
      deliveries: [
        {
          id: 'del_1',
          merchantId: 'mer_1',
          webhookId: 'wh_1',
          eventId: 'evt_2',
          eventKind: 'payment.succeeded',
          status: 'delivered',
          attempts: 1,
          lastResponseStatus: 200,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: at(3),
          createdAt: at(2),
        },
      ],
      unmatched: [],
    });
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'status', 'delivery', 'refund', 'refund_outcome']);
    expect(timeline[1]).toMatchObject({ kind: 'status', status: 'succeeded', at: at(2) });
  });

  it('falls back to the payment’s own times once its events are purged', () => {
    const expired = { ...payment, status: 'expired' as const, completedAt: null, refundedAmount: 0, updatedAt: at(16) };
    const timeline = paymentTimeline({ payment: expired, refunds: [], events: [], deliveries: [], unmatched: [] });
    expect(timeline).toEqual([
      { kind: 'created', at: at(0) },
      { kind: 'status', at: at(16), status: 'expired' },
    ]);
  });
});
