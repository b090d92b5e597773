import { parse } from 'promptparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileBankPayments } from '../../src/app/bank-payments.js';
import { bankSettings, startLiveBank, type LiveBank } from '../support/bank.js';
import { expectEnvelope } from '../support/http.js';
import { eventually } from '../support/receiver.js';

/**
 * A live till's static QR paid through the bank simulator with an amount the customer typed: the confirmation (checked
 * by inquiry), reconciliation when it is lost, once per bank transaction, and unmatched money where no payment fits.
 */
let live: LiveBank;
beforeAll(async () => {
  live = await startLiveBank();
});
afterAll(async () => {
  await live?.stop();
});

const services = () => live.server.running.runtime.services;
const createTill = async (name = 'Front counter') => {
  const res = await live.api.post('/Thai/v1/tills', { name });
  expect(res.status, res.text).toBe(200);
  return res.body as { till_id: string; reference: string; static_qr: { qr_data: string; qr_image_url: string } };
};
const paymentsAt = async (tillId: string) => (await live.api.get(`/Thai/v1/payments?till_id=${tillId}`)).body.payments as Record<string, unknown>[];
const unmatchedOf = async (transactionId: string) =>
  (await services().uow.repos.bankTransactions.listUnmatched(1000)).find((u) => u.transactionId === transactionId);
const staticQrCodeId = (till: { static_qr: { qr_image_url: string } }) => till.static_qr.qr_image_url.split('/').at(-2);
const knobs = (changes: Partial<LiveBank['bank']['knobs']>) => Object.assign(live.bank.knobs, changes);
const reconcile = () => reconcileBankPayments(services(), 60_000);

describe("a live till's static QR", () => {
  it("decodes as a static tag-30 bill payment to the operator's biller id, ref1 the till's reference, ref2 PQR, no amount", async () => {
    const till = await createTill();
    const qr = parse(till.static_qr.qr_data, true);
    expect(qr, till.static_qr.qr_data).not.toBeNull();
    expect(qr!.getTagValue('01')).toBe('11');
    expect(qr!.getTagValue('54')).toBeUndefined();
    expect(qr!.getTagValue('30', '00')).toBe('A000000677010112');
    expect(qr!.getTagValue('30', '01')).toBe(bankSettings.billerId);
    expect(qr!.getTagValue('30', '02')).toBe(till.reference);
    expect(qr!.getTagValue('30', '03')).toBe('PQR');
    // No payment's QR code carries that reference: it names the till alone.
    const dynamic = await live.liveQr(15_000);
    expect(dynamic.ref1).not.toBe(till.reference);
  });

  it('paid with a typed amount, its confirmation creates one succeeded payment of the till, as the bank listed it', async () => {
    knobs({ dropRate: 0, duplicateRate: 0 });
    const till = await createTill();
    const { transaction, callback } = live.bank.pay({ qr_data: till.static_qr.qr_data, amount: '150.50', sending_bank_code: '014', payer_name: 'SOMSRI D' });
    expect(callback).toBe('sent');
    await live.bank.callbacksSettled();
    const [payment] = await paymentsAt(till.till_id);
    expect(payment).toMatchObject({
      status: 'succeeded',
      amount: 15_050,
      till_id: till.till_id,
      qr_code_id: staticQrCodeId(till),
      reference: null,
      expires_at: null,
      completed_at: new Date(transaction.transactionDateandTime).toISOString(),
      client_name: 'SOMSRI D',
      client_bank_name: 'SCB',
    });
    const events = (await live.api.get('/Thai/v1/events?limit=100')).body.events.filter(
      (e: { data: { payment_id?: string } }) => e.data.payment_id === payment!.payment_id,
    );
    expect(events.map((e: { event: string; data: { till_id: string } }) => [e.event, e.data.till_id])).toEqual([['payment.succeeded', till.till_id]]);
    const ledger = JSON.stringify((await live.api.get('/Thai/v1/balance/transactions?limit=100')).body);
    expect(ledger).toContain(String(payment!.payment_id));
    // Reconciliation then finds the same transaction: nothing new.
    await reconcile();
    expect(await paymentsAt(till.till_id)).toHaveLength(1);
  });

  it('a lost confirmation is found by reconciliation, once', async () => {
    knobs({ dropRate: 1, duplicateRate: 0 });
    const till = await createTill();
    const { callback } = live.bank.pay({ qr_data: till.static_qr.qr_data, amount: '80' });
    expect(callback).toBe('dropped');
    expect(await paymentsAt(till.till_id)).toHaveLength(0);
    const round = await reconcile();
    expect(round.tills).toBeGreaterThanOrEqual(1);
    expect(round.outcomes.succeeded).toBe(1);
    expect((await paymentsAt(till.till_id)).map((p) => [p.status, p.amount])).toEqual([['succeeded', 8_000]]);
    expect((await reconcile()).outcomes.succeeded).toBe(0);
    expect(await paymentsAt(till.till_id)).toHaveLength(1);
  });

  it('a confirmation sent twice at once, then resent, makes one payment', async () => {
    knobs({ dropRate: 0, duplicateRate: 1 });
    const till = await createTill();
    live.bank.pay({ qr_data: till.static_qr.qr_data, amount: '42.00' });
    await live.bank.callbacksSettled();
    await reconcile();
    expect((await paymentsAt(till.till_id)).map((p) => p.amount)).toEqual([4_200]);
  });

  it('an amount outside 1 to 2,000,000 THB is unmatched money, and makes no payment', async () => {
    knobs({ dropRate: 0, duplicateRate: 0 });
    const till = await createTill();
    const small = live.bank.pay({ qr_data: till.static_qr.qr_data, amount: '0.50' }).transaction;
    const large = live.bank.pay({ qr_data: till.static_qr.qr_data, amount: '2000000.01' }).transaction;
    await live.bank.callbacksSettled();
    await reconcile();
    expect(await paymentsAt(till.till_id)).toHaveLength(0);
    for (const transaction of [small, large])
      expect(await unmatchedOf(transaction.transactionId)).toMatchObject({ reason: 'amount_out_of_range', paymentId: null });
  });

  it("money paid to a closed till's static QR is unmatched money, and makes no payment", async () => {
    knobs({ dropRate: 0, duplicateRate: 0 });
    const till = await createTill();
    expect((await live.api.post(`/Thai/v1/tills/${till.till_id}/close`)).status).toBe(200);
    const { transaction } = live.bank.pay({ qr_data: till.static_qr.qr_data, amount: '150' });
    await live.bank.callbacksSettled();
    await eventually(() => unmatchedOf(transaction.transactionId), 'the unmatched money');
    await reconcile(); // a closed till is no longer asked about, and the callback's record stands
    expect(await paymentsAt(till.till_id)).toHaveLength(0);
    expect(await unmatchedOf(transaction.transactionId)).toMatchObject({ reason: 'till_closed', paymentId: null });
  });

  it('the test helper has no live till to pay', async () => {
    const till = await createTill();
    expectEnvelope(await live.api.post(`/Thai/v1/test/tills/${till.till_id}/payments`, { amount: 15_000 }), 404, 'till_not_found');
  });
});
