import { parse } from 'promptparse';
import { describe, expect, it } from 'vitest';
import { tillByDisplayToken } from '../../src/app/tills.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { subscribe, webhookEnv } from '../webhooks/fixtures.js';

/** Tills over HTTP: create, list, retrieve, close, roll the display URL; isolation between merchants; a payment at a till. */
const { server, api } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();

const newMerchant = async (): Promise<ApiClient> => apiClient(server.url, await server.merchant());
const createTill = async (client: ApiClient, name = 'Front counter') => {
  const res = await client.post('/Thai/v1/tills', { name });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const tokenOf = (displayUrl: string): string => displayUrl.split('/').at(-1)!;

describe('tills', () => {
  it('creates an active till with a reference, a display URL and a static QR, and retrieves it', async () => {
    const till = await createTill(api, '  Front counter ');
    expect(till).toMatchObject({ name: 'Front counter', status: 'active' });
    expect(till.till_id).toMatch(/^till_[0-9a-f]{32}$/);
    expect(till.reference).toMatch(/^[A-Z0-9]{20}$/);
    expect(till.display_url).toMatch(new RegExp(`^${server.url}/Thai/tills/display/[A-Za-z0-9_-]{22,}$`));
    expect(till.static_qr.qr_image_url).toMatch(new RegExp(`^${server.url}/Thai/qr-codes/qr_[0-9a-f]{32}/image$`));
    expect((await api.get(`/Thai/v1/tills/${till.till_id}`)).body).toEqual(till);
    // The static QR's image is served like any QR code's.
    const image = await fetch(till.static_qr.qr_image_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it("a test till's static QR is static (11), has no amount and names the unpayable test proxy with the till's reference", async () => {
    const till = await createTill(api);
    const qr = parse(till.static_qr.qr_data, true);
    expect(qr, till.static_qr.qr_data).not.toBeNull();
    expect(qr!.getTagValue('01')).toBe('11');
    expect(qr!.getTagValue('54')).toBeUndefined();
    expect(qr!.getTagValue('29', '01')).toBe('0066000000000');
    expect(qr!.getTagValue('62', '05')).toBe(till.reference);
  });

  it('refuses a name that is empty, blank, over 50 characters or holds control characters', async () => {
    for (const name of ['', '   ', 'x'.repeat(51), 'Counter\n2']) {
      const res = await api.post('/Thai/v1/tills', { name });
      expectEnvelope(res, 400, 'invalid_request');
      expect(res.body.error.param ?? 'name').toMatch(/name/);
    }
    expect((await api.post('/Thai/v1/tills', { name: 'ร้าน'.repeat(12) + 'ab' })).status).toBe(200); // 50 characters
  });

  it('lists tills newest first with total, limit and offset', async () => {
    const client = await newMerchant();
    const made = [];
    for (const name of ['One', 'Two', 'Three']) made.push((await createTill(client, name)).till_id);
    const page = await client.get('/Thai/v1/tills?limit=2');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.body.tills.map((t: { till_id: string }) => t.till_id)).toEqual([made[2], made[1]]);
    const rest = await client.get('/Thai/v1/tills?limit=2&offset=2');
    expect(rest.body.tills.map((t: { till_id: string }) => t.till_id)).toEqual([made[0]]);
  });

  it("another merchant's till is 404 till_not_found everywhere, and unknown to its QR generation", async () => {
    const till = await createTill(api);
    const other = await newMerchant();
    expectEnvelope(await other.get(`/Thai/v1/tills/${till.till_id}`), 404, 'till_not_found');
    expectEnvelope(await other.post(`/Thai/v1/tills/${till.till_id}/close`), 404, 'till_not_found');
    expectEnvelope(await other.post(`/Thai/v1/tills/${till.till_id}/display-url/roll`), 404, 'till_not_found');
    expectEnvelope(await other.post(`/Thai/v1/test/tills/${till.till_id}/payments`, { amount: 15_000 }), 404, 'till_not_found');
    const qr = await other.post('/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB', till_id: till.till_id });
    expectEnvelope(qr, 422, 'till_unavailable');
    expect(qr.body.error.param).toBe('till_id');
    expect((await other.get('/Thai/v1/tills')).body.total).toBe(0);
    expect((await api.get(`/Thai/v1/tills/${till.till_id}`)).body.status).toBe('active');
  });

  it('closes a till: QR generation at it answers 422 till_unavailable, its display stops; closing again changes nothing', async () => {
    const till = await createTill(api);
    const s = server.running.runtime.services;
    expect((await tillByDisplayToken(s, tokenOf(till.display_url)))?.id).toBe(till.till_id);
    const closed = await api.post(`/Thai/v1/tills/${till.till_id}/close`);
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toEqual({ ...till, status: 'closed' });
    expect((await api.post(`/Thai/v1/tills/${till.till_id}/close`)).body).toEqual(closed.body);
    expect(await tillByDisplayToken(s, tokenOf(till.display_url))).toBeNull();

    const qr = await api.post('/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB', till_id: till.till_id });
    expectEnvelope(qr, 422, 'till_unavailable');
    expect(qr.body.error.param).toBe('till_id');
    expectEnvelope(await api.post('/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB', till_id: 'till_unknown' }), 422, 'till_unavailable');
    expectEnvelope(await api.post(`/Thai/v1/test/tills/${till.till_id}/payments`, { amount: 15_000 }), 422, 'till_unavailable');
    expectEnvelope(await api.post(`/Thai/v1/tills/${till.till_id}/display-url/roll`), 422, 'till_unavailable');
    // A closed till's static QR image is gone too.
    expect((await fetch(till.static_qr.qr_image_url)).status).toBe(404);
  });

  it('rolls the display URL: a new random token; the old one finds no till', async () => {
    const till = await createTill(api);
    const s = server.running.runtime.services;
    const rolled = await api.post(`/Thai/v1/tills/${till.till_id}/display-url/roll`);
    expect(rolled.status, rolled.text).toBe(200);
    expect(rolled.body.display_url).not.toBe(till.display_url);
    expect(rolled.body).toEqual({ ...till, display_url: rolled.body.display_url });
    expect(await tillByDisplayToken(s, tokenOf(till.display_url))).toBeNull();
    expect((await tillByDisplayToken(s, tokenOf(rolled.body.display_url)))?.id).toBe(till.till_id);
    expect(await tillByDisplayToken(s, 'not-a-token')).toBeNull();
  });

  it('allows 100 active tills per merchant: the 101st is 422 till_limit_reached, closed ones do not count', async () => {
    const client = await newMerchant();
    const create = (i: number) => client.post('/Thai/v1/tills', { name: `Till ${i}` });
    for (let i = 0; i < 96; i += 8) {
      const batch = await Promise.all(Array.from({ length: 8 }, (_, j) => create(i + j)));
      expect(batch.map((res) => res.status)).toEqual(Array(8).fill(200));
    }
    // The last four places, asked for by eight at once: four get one.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, j) => create(96 + j)));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(4).fill(200), ...Array(4).fill(422)]);
    for (const refused of answers.filter((res) => res.status !== 200)) expectEnvelope(refused, 422, 'till_limit_reached');
    const first = answers.find((res) => res.status === 200)!.body.till_id as string;
    expect((await client.post(`/Thai/v1/tills/${first}/close`)).status).toBe(200);
    expect((await client.post('/Thai/v1/tills', { name: 'One more' })).status).toBe(200);
    expectEnvelope(await client.post('/Thai/v1/tills', { name: 'Too many' }), 422, 'till_limit_reached');
    expect((await client.get('/Thai/v1/tills?limit=1')).body.total).toBe(101);
  });
});

describe('a payment at a till', () => {
  it('carries till_id on the QR code, the payment, the list filter and every webhook payload', async () => {
    const client = await newMerchant();
    await subscribe(client, receiver, '/till-events', ['payment.pending', 'payment.succeeded']);
    const till = await createTill(client);
    const other = await createTill(client, 'Back counter');
    const qr = await client.post('/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB', till_id: till.till_id });
    expect(qr.status, qr.text).toBe(200);
    expect(qr.body.till_id).toBe(till.till_id);
    const elsewhere = await client.post('/Thai/v1/qr-codes', { amount: 20_000, currency: 'THB' });
    expect(elsewhere.body.till_id).toBeNull();
    expect((await client.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`)).body).toMatchObject({ status: 'succeeded', till_id: till.till_id });
    expect((await client.get(`/Thai/v1/payments/${qr.body.payment_id}`)).body.till_id).toBe(till.till_id);
    expect((await client.get(`/Thai/v1/payments/${elsewhere.body.payment_id}`)).body.till_id).toBeNull();

    const atTill = await client.get(`/Thai/v1/payments?till_id=${till.till_id}`);
    expect(atTill.body.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([qr.body.payment_id]);
    expect(atTill.body.total).toBe(1);
    expect((await client.get(`/Thai/v1/payments?till_id=${other.till_id}`)).body.total).toBe(0);
    expect((await client.get('/Thai/v1/payments')).body.total).toBe(2);

    const deliveries = await eventually(() => {
      const mine = receiver.at('/till-events').filter((d) => d.payload.data.payment_id === qr.body.payment_id);
      return mine.length >= 2 && mine;
    }, 'both webhooks of the till payment');
    expect(deliveries.map((d) => [d.payload.event, d.payload.data.till_id]).sort()).toEqual([
      ['payment.pending', till.till_id],
      ['payment.succeeded', till.till_id],
    ]);
    const untilled = (await client.get('/Thai/v1/events?limit=100')).body.events.find(
      (e: { data: { payment_id: string } }) => e.data.payment_id === elsewhere.body.payment_id,
    );
    expect(untilled.data.till_id).toBeNull();
  });

  it("the test helper pays a test till's static QR: one succeeded payment of the till, with fee, ledger and payment.succeeded only", async () => {
    const client = await newMerchant();
    await subscribe(client, receiver, '/static-events', ['payment.pending', 'payment.succeeded']);
    const till = await createTill(client);
    const paid = await client.post(`/Thai/v1/test/tills/${till.till_id}/payments`, { amount: 15_050 });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'succeeded', amount: 15_050, till_id: till.till_id, reference: null, expires_at: null });
    expect(paid.body.qr_code_id).toBe(till.static_qr.qr_image_url.split('/').at(-2));
    expect(paid.body.completed_at).not.toBeNull();
    expect((await client.get(`/Thai/v1/payments/${paid.body.payment_id}`)).body).toEqual(paid.body);
    expect((await client.get(`/Thai/v1/payments?till_id=${till.till_id}`)).body.total).toBe(1);
    const ledger = (await client.get('/Thai/v1/balance/transactions')).body.balance_transactions;
    expect(ledger.some((e: { source_id?: string; payment_id?: string }) => JSON.stringify(e).includes(paid.body.payment_id))).toBe(true);

    const delivered = await eventually(
      () => receiver.at('/static-events').find((d) => d.payload.data.payment_id === paid.body.payment_id),
      'payment.succeeded of the static payment',
    );
    expect(delivered.payload).toMatchObject({ event: 'payment.succeeded', data: { till_id: till.till_id, amount: 15_050, status: 'succeeded' } });
    const events = (await client.get('/Thai/v1/events?limit=100')).body.events.filter(
      (e: { data: { payment_id: string } }) => e.data.payment_id === paid.body.payment_id,
    );
    expect(events.map((e: { event: string }) => e.event)).toEqual(['payment.succeeded']);

    expectEnvelope(await client.post(`/Thai/v1/test/tills/${till.till_id}/payments`, { amount: 99 }), 422, 'invalid_amount');
    expectEnvelope(await client.post(`/Thai/v1/test/tills/${till.till_id}/payments`, { amount: 200_000_001 }), 422, 'invalid_amount');
  });
});
