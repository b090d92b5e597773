import { describe, expect, it } from 'vitest';
import type { Refund } from '../../src/domain/refund.js';
import type { CustomerBank, RefundOutcome } from '../../src/ports/bank.js';
import { balanceOf, ledgerOf, paid } from '../balance/fixtures.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

/** The customer's bank, which the test can make hold the next refund until it answers it, or fail outright. */
function customerBank() {
  let holdNext: ((refund: Refund) => void) | null = null;
  let answer: (outcome: RefundOutcome | Error) => void = () => {};
  return {
    bank: {
      sendRefund(refund) {
        const hold = holdNext;
        if (!hold) return Promise.resolve('succeeded');
        holdNext = null;
        return new Promise<RefundOutcome>((resolve, reject) => {
          answer = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
          hold(refund);
        });
      },
    } satisfies CustomerBank,
    /** Resolves with the next refund the bank is asked for, once it holds it. */
    holdNext: () => new Promise<Refund>((resolve) => (holdNext = resolve)),
    answer: (outcome: RefundOutcome | Error) => answer(outcome),
  };
}

const customer = customerBank();
let api: ApiClient;

const { server } = usingTestServer({ bank: customer.bank });

const newMerchant = async () => apiClient(server.url, await server.merchant());
const paymentOf = async (shop: ApiClient, id: string) => (await shop.get(`/Thai/v1/payments/${id}`)).body;
const eventKinds = async (shop: ApiClient) =>
  ((await shop.get('/Thai/v1/events?limit=100')).body.events as { event: string }[]).map((e) => e.event).filter((kind) => kind.startsWith('refund.'));

describe('the customer bank is called with no row lock held', { timeout: 30_000 }, () => {
  it('while it holds one refund, refunds needing the same payment row and the same balance row complete', async () => {
    api = await newMerchant();
    const first = await paid(api, 10_000);
    const second = await paid(api, 10_000);

    const held = customer.holdNext();
    const answering = api.post('/Thai/v1/refunds', { payment_id: first, amount: 3_000 }, { idempotencyKey: 'held-refund' });
    const atTheBank = await held;

    // Recorded before the call: the refund is pending, its money already taken.
    expect((await api.get(`/Thai/v1/refunds/${atTheBank.id}`)).body).toMatchObject({ status: 'pending', amount: 3_000 });
    expect(await balanceOf(api)).toEqual({ available: 17_000, pending: 0 });
    // The balance row: another payment's refund. The payment row: a second refund of the same payment.
    const other = await api.post('/Thai/v1/refunds', { payment_id: second });
    expect(other.status, other.text).toBe(200);
    expect(other.body.status).toBe('succeeded');
    const more = await api.post('/Thai/v1/refunds', { payment_id: first, amount: 2_000 });
    expect(more.body).toMatchObject({ status: 'succeeded', amount: 2_000 });
    // A retry meanwhile finds the first request still running (as while it ran in one transaction), never refunds twice.
    const early = await api.post('/Thai/v1/refunds', { payment_id: first, amount: 3_000 }, { idempotencyKey: 'held-refund' });
    expectEnvelope(early, 409, 'idempotency_key_in_use');

    customer.answer('succeeded');
    const answered = await answering;
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ refund_id: atTheBank.id, status: 'succeeded', amount: 3_000 });
    const replay = await api.post('/Thai/v1/refunds', { payment_id: first, amount: 3_000 }, { idempotencyKey: 'held-refund' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(answered.text);

    expect(await paymentOf(api, first)).toMatchObject({ status: 'succeeded', refunded_amount: 5_000 });
    expect(await balanceOf(api)).toEqual({ available: 5_000, pending: 0 });
    expect(await eventKinds(api)).toEqual(['refund.completed', 'refund.completed', 'refund.completed']);
  });

  it.each([
    ['refuses it', 'failed' as const],
    ['cannot be reached', new Error('connection reset by the bank')],
  ])('a refund the bank %s fails and gives back what it took, once', async (_what, outcome) => {
    const shop = await newMerchant();
    const paymentId = await paid(shop, 8_000);
    const held = customer.holdNext();
    const answering = shop.post('/Thai/v1/refunds', { payment_id: paymentId }, { idempotencyKey: 'refund-to-fail' });
    await held;
    expect(await paymentOf(shop, paymentId)).toMatchObject({ status: 'refunded', refunded_amount: 8_000 });

    customer.answer(outcome);
    const answered = await answering;
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ status: 'failed', amount: 8_000 });
    const replay = await shop.post('/Thai/v1/refunds', { payment_id: paymentId }, { idempotencyKey: 'refund-to-fail' });
    expect(replay.text).toBe(answered.text);

    expect(await paymentOf(shop, paymentId)).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect(await balanceOf(shop)).toEqual({ available: 8_000, pending: 0 });
    expect((await ledgerOf(shop)).map((e) => [e.type, e.amount])).toEqual([
      ['refund_reversal', 8_000],
      ['refund', -8_000],
      ['payment', 8_000],
    ]);
    expect((await shop.get('/Thai/v1/transactions?type=refund')).body.transactions).toMatchObject([{ status: 'failed', amount: -8_000 }]);
    expect(await eventKinds(shop)).toEqual(['refund.failed']);
  });
});
