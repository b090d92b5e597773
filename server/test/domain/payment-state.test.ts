import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { expire, expiryDueAt, fail, succeed, succeedByBank } from '../../src/domain/payment.js';
import { applySettledRefund, refundAmountFor } from '../../src/domain/refund.js';
import { paymentTransactionState } from '../../src/domain/transaction.js';
import { paymentEventKind } from '../../src/domain/events.js';
import { paymentRecord } from '../support/payments.js';

const t0 = new Date('2026-11-20T08:00:00.000Z');
const later = new Date('2026-11-20T08:05:00.000Z');
const pending = paymentRecord({
  id: 'pay_1',
  merchantId: 'mch_1',
  qrCodeId: 'qr_1',
  status: 'pending',
  amount: 10000,
  createdAt: t0,
  expiresAt: new Date('2026-11-20T08:15:00.000Z'),
});

const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return (error as DomainError).code;
  }
  return 'no error';
};

describe('payment state machine', () => {
  it('pending -> succeeded | failed | expired, with the transaction and event each implies', () => {
    expect(succeed(pending, later)).toMatchObject({ status: 'succeeded', completedAt: later });
    expect(fail(pending, later).status).toBe('failed');
    expect(expire(pending, later).status).toBe('expired');
    expect(paymentTransactionState(fail(pending, later))).toEqual({ type: 'failed', status: 'failed' });
    expect(paymentTransactionState(expire(pending, later))).toEqual({ type: 'failed', status: 'failed' });
    expect(paymentEventKind(expire(pending, later))).toBe('payment.failed');
    expect(paymentEventKind(succeed(pending, later))).toBe('payment.succeeded');
  });

  it('refuses every transition out of a final state', () => {
    for (const done of [succeed(pending, later), fail(pending, later), expire(pending, later)]) {
      expect(codeOf(() => succeed(done, later))).toBe('payment_not_pending');
      expect(codeOf(() => fail(done, later))).toBe('payment_not_pending');
      expect(codeOf(() => expire(done, later))).toBe('payment_not_pending');
    }
  });

  it('refuses completion at or after expires_at', () => {
    expect(codeOf(() => succeed(pending, pending.expiresAt!))).toBe('payment_not_pending');
  });

  it('succeeded -> refunded only when refunds reach the full amount', () => {
    const paid = succeed(pending, later);
    const partly = applySettledRefund(paid, 4000, later);
    expect(partly).toMatchObject({ status: 'succeeded', refundedAmount: 4000 });
    expect(refundAmountFor(partly, undefined)).toBe(6000);
    expect(codeOf(() => refundAmountFor(partly, 6001))).toBe('invalid_amount');
    const fully = applySettledRefund(partly, 6000, later);
    expect(fully.status).toBe('refunded');
    expect(paymentTransactionState(fully)).toEqual({ type: 'payment', status: 'refunded' });
    expect(codeOf(() => refundAmountFor(fully, undefined))).toBe('payment_not_refundable');
    expect(codeOf(() => refundAmountFor(pending, 1))).toBe('payment_not_refundable');
  });

  it('the bank settles a payment it was paid for at or before expires_at; expired -> succeeded for live payments only', () => {
    const expiresAt = pending.expiresAt!;
    const lastSecond = new Date(expiresAt.getTime() - 1_000);
    const swept = expire(pending, new Date(expiresAt.getTime() + 61_000));
    expect(succeedByBank(pending, 'live', expiresAt)).toMatchObject({ status: 'succeeded', completedAt: expiresAt });
    expect(succeedByBank(swept, 'live', lastSecond, { clientBankName: 'KBANK' })).toMatchObject({
      status: 'succeeded',
      completedAt: lastSecond,
      clientBankName: 'KBANK',
    });
    expect(paymentEventKind(succeedByBank(swept, 'live', lastSecond))).toBe('payment.succeeded');
    expect(codeOf(() => succeedByBank(swept, 'test', lastSecond))).toBe('payment_not_pending');
    expect(codeOf(() => succeedByBank(swept, 'live', new Date(expiresAt.getTime() + 1)))).toBe('payment_not_pending');
    expect(codeOf(() => succeedByBank(pending, 'live', new Date(expiresAt.getTime() + 1)))).toBe('payment_not_pending');
    for (const done of [succeed(pending, later), fail(pending, later)])
      expect(codeOf(() => succeedByBank(done, 'live', lastSecond))).toBe('payment_not_pending');
  });

  it('the sweeper may expire a test payment at expires_at, a live one 60 s later', () => {
    expect(expiryDueAt(pending.expiresAt!, 'test')).toEqual(pending.expiresAt);
    expect(expiryDueAt(pending.expiresAt!, 'live')).toEqual(new Date(pending.expiresAt!.getTime() + 60_000));
  });
});
