import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { bangkokDateOf } from '../../src/domain/bangkok-day.js';
import { apiClient, expectEnvelope } from '../support/http.js';
import { eventually } from '../support/receiver.js';
import { manualClock, startTestServer, usingTestServer } from '../support/test-server.js';
import { balanceOf, ledgerOf, paid, payoutAccount } from './fixtures.js';

const { server } = usingTestServer();

describe('GET /balance', () => {
  it('starts at zero and grows with each paid QR code, net of the fee and its 7 % VAT', async () => {
    const api = apiClient(server.url, await server.merchant({ feeBps: 365 }));
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
    await paid(api, 100_000); // fee 3650, VAT 255.5 -> 256 (half up), net 96094
    expect(await balanceOf(api)).toEqual({ available: 96_094, pending: 0 });
    await paid(api, 150); // fee 5.475 -> 5, VAT 0.35 -> 0, net 145
    expect(await balanceOf(api)).toEqual({ available: 96_239, pending: 0 });

    const [small, large] = await ledgerOf(api);
    expect(large).toMatchObject({ type: 'payment', amount: 100_000, fee: 3650, fee_vat: 256, net: 96_094, currency: 'THB', withdrawal_id: null });
    expect(small).toMatchObject({ type: 'payment', amount: 150, fee: 5, fee_vat: 0, net: 145 });
    expect(large.balance_transaction_id).toMatch(/^bt_/);
    expect(large.source_id).toMatch(/^pay_/);
  });

  it('rounds half up: a fee of exactly .5 satang and VAT of exactly .5 satang both round up', async () => {
    const api = apiClient(server.url, await server.merchant({ feeBps: 50 }));
    await paid(api, 1100); // fee 5.5 -> 6, VAT 0.42 -> 0
    await paid(api, 15_000); // fee 75, VAT 5.25 -> 5
    await paid(api, 100_000); // fee 500, VAT 35 exactly
    const fees = (await ledgerOf(api)).map((e) => [e.amount, e.fee, e.fee_vat, e.net]);
    expect(fees).toEqual([
      [100_000, 500, 35, 99_465],
      [15_000, 75, 5, 14_920],
      [1100, 6, 0, 1094],
    ]);
  });

  it('credits a card payment approved at once, and never a failed, expired or declined one', async () => {
    const api = apiClient(server.url, await server.merchant());
    expect((await api.post('/Thai/v1/payments', { token_id: 'tok_visa', amount: 5000, currency: 'THB' })).status).toBe(200);
    expect((await api.post('/Thai/v1/payments', { token_id: 'tok_declined', amount: 7000, currency: 'THB' })).status).toBe(402);
    for (const helper of ['fail', 'expire']) {
      const qr = await api.post('/Thai/v1/qr-codes', { amount: 9000, currency: 'THB' });
      expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/${helper}`)).status).toBe(200);
    }
    expect(await balanceOf(api)).toEqual({ available: 5000, pending: 0 });
    expect((await ledgerOf(api)).map((e) => e.type)).toEqual(['payment']);
  });

  it('a second completion of a payment is refused and credits nothing', async () => {
    const api = apiClient(server.url, await server.merchant());
    const paymentId = await paid(api, 20_000);
    expectEnvelope(await api.post(`/Thai/v1/test/payments/${paymentId}/succeed`), 422, 'payment_not_pending');
    expect(await balanceOf(api)).toEqual({ available: 20_000, pending: 0 });
  });

  it('is per merchant: another merchant sees its own balance and ledger only', async () => {
    const a = apiClient(server.url, await server.merchant());
    const b = apiClient(server.url, await server.merchant());
    await paid(a, 30_000);
    expect(await balanceOf(b)).toEqual({ available: 0, pending: 0 });
    expect(await ledgerOf(b)).toEqual([]);
  });

  it('needs an API key', async () => {
    expectEnvelope(await apiClient(server.url).get('/Thai/v1/balance'), 401, 'authentication_failed');
    expectEnvelope(await apiClient(server.url).get('/Thai/v1/balance/transactions'), 401, 'authentication_failed');
  });
});

describe('GET /balance/transactions', () => {
  it('pages newest first with a total, filters by type and date, and refuses bad parameters', async () => {
    const api = apiClient(server.url, await server.merchant({ payoutAccount }));
    for (const amount of [1000, 2000, 3000]) await paid(api, amount);
    const paymentId = await paid(api, 4000);
    expect((await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 500 })).status).toBe(200);

    const page = await api.get('/Thai/v1/balance/transactions?limit=2');
    expect(page.body).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(page.body.balance_transactions.map((e: any) => e.type)).toEqual(['refund', 'payment']);
    expect(page.body.balance_transactions[0]).toMatchObject({ amount: -500, net: -500, fee: 0, fee_vat: 0 });
    const next = await api.get('/Thai/v1/balance/transactions?limit=2&offset=2');
    expect(next.body.balance_transactions.map((e: any) => e.amount)).toEqual([3000, 2000]);

    const refunds = await api.get('/Thai/v1/balance/transactions?type=refund');
    expect(refunds.body.total).toBe(1);
    const today = bangkokDateOf(new Date()); // a date filter is a Bangkok day
    expect((await api.get(`/Thai/v1/balance/transactions?start_date=${today}&end_date=${today}`)).body.total).toBe(5);
    expect((await api.get('/Thai/v1/balance/transactions?end_date=2001-01-01')).body.total).toBe(0);

    for (const query of ['type=fee', 'limit=101', 'offset=-1', 'start_date=yesterday', 'format=xml']) {
      expectEnvelope(await api.get(`/Thai/v1/balance/transactions?${query}`), 400, 'invalid_parameters');
    }
  });

  it('answers the same rows as CSV, whose net column sums to the balance', async () => {
    const api = apiClient(server.url, await server.merchant({ feeBps: 290, payoutAccount }));
    await paid(api, 12_345);
    const paymentId = await paid(api, 50_000);
    await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 10_000 });
    expect((await api.post('/Thai/v1/withdrawals', { amount: 20_000 })).status).toBe(200);

    const csv = await api.get('/Thai/v1/balance/transactions?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'balance_transaction_id,type,amount,amount_baht,fee,fee_baht,fee_vat,fee_vat_baht,net,net_baht,currency,source_id,reference,withdrawal_id,available_on,available_on_bangkok,created_at,created_at_bangkok',
    );
    const rows: Record<string, string>[] = parse(csv.text, { bom: true, columns: true });
    const json = await ledgerOf(api);
    // The file runs oldest first, the list newest first.
    expect(rows.map((row) => row.balance_transaction_id)).toEqual(json.map((e) => e.balance_transaction_id).reverse());
    const net = rows.reduce((sum, row) => sum + Number(row.net), 0);
    const { available, pending } = await balanceOf(api);
    expect(net).toBe(available + pending);
    expect(rows.every((row) => row.withdrawal_id === '' || row.withdrawal_id!.startsWith('wd_'))).toBe(true);
  });

  it('links the entries a withdrawal paid out to it', async () => {
    const api = apiClient(server.url, await server.merchant({ payoutAccount }));
    await paid(api, 10_000);
    await paid(api, 5000);
    const withdrawal = await api.post('/Thai/v1/withdrawals', { amount: 12_000 });
    const later = await paid(api, 7000);
    const entries = await ledgerOf(api);
    const linked = entries.filter((e) => e.withdrawal_id === withdrawal.body.withdrawal_id).map((e) => [e.type, e.amount]);
    expect(linked).toEqual([
      ['withdrawal', -12_000],
      ['payment', 5000],
      ['payment', 10_000],
    ]);
    expect(entries.find((e) => e.source_id === later).withdrawal_id).toBeNull();
  });
});

describe('refunds take from the balance', () => {
  it('answers 402 insufficient_funds when the balance cannot cover the refund, after the payment checks', async () => {
    const api = apiClient(server.url, await server.merchant({ feeBps: 300, payoutAccount }));
    const paymentId = await paid(api, 10_000); // net 9679: the fee is not returned, so a full refund does not fit
    const refused = await api.post('/Thai/v1/refunds', { payment_id: paymentId }, { idempotencyKey: 'refund-all' });
    expectEnvelope(refused, 402, 'insufficient_funds');
    expect(refused.body.error.type).toBe('payment_error');
    // Stored for idempotency like every 402; nothing was refunded.
    expect((await api.post('/Thai/v1/refunds', { payment_id: paymentId }, { idempotencyKey: 'refund-all' })).headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get(`/Thai/v1/payments/${paymentId}`)).body).toMatchObject({ status: 'succeeded', refunded_amount: 0 });
    expect(await balanceOf(api)).toEqual({ available: 9679, pending: 0 });

    // The payment's own checks come first: 404, then 422.
    expectEnvelope(await api.post('/Thai/v1/refunds', { payment_id: 'pay_unknown' }), 404, 'payment_not_found');
    expectEnvelope(await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 10_001 }), 422, 'invalid_amount');
    const pendingQr = await api.post('/Thai/v1/qr-codes', { amount: 5000, currency: 'THB' });
    expectEnvelope(await api.post('/Thai/v1/refunds', { payment_id: pendingQr.body.payment_id }), 422, 'payment_not_refundable');

    // Exactly the balance fits.
    expect((await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 9679 })).status).toBe(200);
    expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
  });

  it('takes from the refunded payment’s own pending credit first, which then matures smaller', async () => {
    const clock = manualClock();
    const delayed = await startTestServer({ clock, env: { SETTLEMENT_DELAY: '1h' } });
    try {
      const api = apiClient(delayed.url, await delayed.merchant());
      await paid(api, 10_000);
      clock.advance(60 * 60 * 1000);
      const second = await paid(api, 8000);
      expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 8000 });
      expect((await api.post('/Thai/v1/refunds', { payment_id: second, amount: 8000 })).status).toBe(200);
      expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 0 });
      expect((await api.post('/Thai/v1/refunds', { payment_id: second, amount: 1 })).status).toBe(422); // fully refunded already
      // The refunded credit matures empty: nothing is counted twice.
      clock.advance(60 * 60 * 1000);
      expect(await balanceOf(api)).toEqual({ available: 10_000, pending: 0 });
    } finally {
      await delayed.stop();
    }
  });
});

describe('SETTLEMENT_DELAY', () => {
  it('keeps a payment pending until the delay has passed since it completed', async () => {
    const clock = manualClock();
    const delayed = await startTestServer({ clock, env: { SETTLEMENT_DELAY: '1d' } });
    try {
      const api = apiClient(delayed.url, await delayed.merchant({ payoutAccount }));
      await paid(api, 25_000);
      expect(await balanceOf(api)).toEqual({ available: 0, pending: 25_000 });
      const [entry] = await ledgerOf(api);
      expect(new Date(entry.available_on).getTime() - new Date(entry.created_at).getTime()).toBe(86_400_000);
      expectEnvelope(await api.post('/Thai/v1/withdrawals', { amount: 100 }), 402, 'insufficient_funds');

      clock.advance(86_400_000 - 1);
      expect(await balanceOf(api)).toEqual({ available: 0, pending: 25_000 });
      clock.advance(1);
      expect(await balanceOf(api)).toEqual({ available: 25_000, pending: 0 });
      // The background worker settles matured credits into the running totals, so reads look at few entries.
      const unsettled = () => delayed.running.runtime.db.knex('balance_transactions').where({ settled: false }).count<{ n: number }[]>({ n: '*' });
      await eventually(async () => Number((await unsettled())[0]!.n) === 0, 'matured credits settled by the worker');
      expect(await balanceOf(api)).toEqual({ available: 25_000, pending: 0 });
      expect((await api.post('/Thai/v1/withdrawals', { amount: 25_000 })).status).toBe(200);
      expect(await balanceOf(api)).toEqual({ available: 0, pending: 0 });
    } finally {
      await delayed.stop();
    }
  });
});
