// Every resource method, end to end, against the real server (in-process, real database, no HTTP mocks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PaymentQrClient, PaymentQrError, WaitTimeoutError, type Transaction } from '../src/index.js';
import { clientForNewMerchant, startApi, type TestServer } from './support/api.js';

let server: TestServer;
beforeAll(async () => {
  server = await startApi();
});
afterAll(async () => {
  await server?.stop();
});

/** Counts the requests a client sends, through the `fetch` option. */
function countingFetch(): { fetch: typeof globalThis.fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    },
  };
}

describe('QR codes, payments, test helpers and refunds', () => {
  it('takes a QR payment from creation to a full refund', async () => {
    const client = await clientForNewMerchant(server);

    const qrCode = await client.qrCodes.create({
      amount: 150_000,
      currency: 'THB',
      reference: 'INV-2026-00042',
      expiry_minutes: 30,
      client_name: 'Somchai Jaidee',
      metadata: { order_id: 'ORD-88213' },
    });
    expect(qrCode).toMatchObject({
      amount: 150_000,
      currency: 'THB',
      status: 'pending',
      reference: 'INV-2026-00042',
      client_name: 'Somchai Jaidee',
      metadata: { order_id: 'ORD-88213' },
    });
    expect(qrCode.qr_data.startsWith('000201')).toBe(true);
    expect(Date.parse(qrCode.expires_at) - Date.parse(qrCode.created_at)).toBe(30 * 60_000);

    // imageUrl builds the very address the server hands out, and it serves the image without a key.
    expect(client.qrCodes.imageUrl(qrCode.qr_code_id)).toBe(qrCode.qr_image_url);
    const svg = await fetch(client.qrCodes.imageUrl(qrCode.qr_code_id, { format: 'svg', size: 400 }));
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

    const pending = await client.payments.retrieve(qrCode.payment_id);
    expect(pending).toMatchObject({ payment_id: qrCode.payment_id, qr_code_id: qrCode.qr_code_id, status: 'pending', card: null, refunded_amount: 0 });

    const succeeded = await client.testHelpers.succeed(qrCode.payment_id, { client_bank_name: 'Kasikornbank', client_bank_account: '123-4-56789-0' });
    expect(succeeded).toMatchObject({ status: 'succeeded', client_name: 'Somchai Jaidee', client_bank_name: 'Kasikornbank' });
    expect(succeeded.completed_at).not.toBeNull();
    expect((await client.payments.waitForCompletion(qrCode.payment_id, { intervalMs: 50 })).status).toBe('succeeded');

    const partial = await client.refunds.create({ payment_id: qrCode.payment_id, amount: 50_000, reason: 'Customer returned one item' });
    expect(partial).toMatchObject({
      payment_id: qrCode.payment_id,
      amount: 50_000,
      currency: 'THB',
      status: 'succeeded',
      reason: 'Customer returned one item',
    });
    expect(await client.refunds.retrieve(partial.refund_id)).toEqual(partial);
    expect(await client.payments.retrieve(qrCode.payment_id)).toMatchObject({ status: 'succeeded', refunded_amount: 50_000 });

    const rest = await client.refunds.create({ payment_id: qrCode.payment_id });
    expect(rest).toMatchObject({ amount: 100_000, reason: null });
    expect(await client.payments.retrieve(qrCode.payment_id)).toMatchObject({ status: 'refunded', refunded_amount: 150_000 });
  });

  it('fails and expires pending payments through the test helpers', async () => {
    const client = await clientForNewMerchant(server);
    const toFail = await client.qrCodes.create({ amount: 10_000, currency: 'THB' });
    const toExpire = await client.qrCodes.create({ amount: 20_000, currency: 'THB' });

    expect((await client.testHelpers.fail(toFail.payment_id)).status).toBe('failed');
    expect((await client.testHelpers.expire(toExpire.payment_id)).status).toBe('expired');
    expect((await client.payments.waitForCompletion(toExpire.payment_id)).status).toBe('expired');
    const image = await fetch(client.qrCodes.imageUrl(toExpire.qr_code_id));
    expect(image.status).toBe(410);
  });

  it('waitForCompletion throws WaitTimeoutError, with the payment id and the last status, when its time runs out', async () => {
    const client = await clientForNewMerchant(server);
    const qrCode = await client.qrCodes.create({ amount: 10_000, currency: 'THB' });
    // No time at all: one look at the payment, which nobody pays, then the deadline has passed.
    const error: unknown = await client.payments.waitForCompletion(qrCode.payment_id, { timeoutMs: 0, intervalMs: 1 }).then(
      (payment) => expect.fail(`resolved with a ${payment.status} payment`),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toBeInstanceOf(PaymentQrError);
    expect(error).toMatchObject({
      name: 'WaitTimeoutError',
      code: 'wait_timeout',
      type: 'wait_timeout_error',
      paymentId: qrCode.payment_id,
      lastStatus: 'pending',
      status: undefined,
      raw: expect.objectContaining({ payment_id: qrCode.payment_id, status: 'pending' }),
    });
    expect((error as Error).message).toContain(qrCode.payment_id);

    // A payment that has left pending by the last look is returned, however late that look was.
    await client.testHelpers.succeed(qrCode.payment_id);
    expect((await client.payments.waitForCompletion(qrCode.payment_id, { timeoutMs: 0 })).status).toBe('succeeded');
  });

  it('charges cards and lists payments with filters and pages', async () => {
    const client = await clientForNewMerchant(server);
    const card = await client.payments.create({
      token_id: 'tok_mastercard',
      amount: 89_000,
      currency: 'THB',
      description: 'Pro plan, 12 months',
      metadata: { plan: 'pro' },
    });
    expect(card).toMatchObject({
      status: 'succeeded',
      card: { brand: 'mastercard', last4: '4444' },
      qr_code_id: null,
      expires_at: null,
      description: 'Pro plan, 12 months',
    });
    const qrCode = await client.qrCodes.create({ amount: 10_000, currency: 'THB' });

    const firstPage = await client.payments.list().page({ limit: 1 });
    expect(firstPage).toMatchObject({ total: 2, limit: 1, offset: 0, hasMore: true });
    expect(firstPage.data.map((p) => p.payment_id)).toEqual([qrCode.payment_id]); // newest first

    const succeeded = [];
    for await (const payment of client.payments.list({ status: 'succeeded' })) succeeded.push(payment.payment_id);
    expect(succeeded).toEqual([card.payment_id]);
  });
});

describe('transactions', () => {
  it('iterates every transaction across several pages, and pages one at a time with total', async () => {
    const counting = countingFetch();
    const client = await clientForNewMerchant(server, { fetch: counting.fetch });
    const qrCodes = [];
    for (let i = 0; i < 5; i += 1) qrCodes.push(await client.qrCodes.create({ amount: 1_000 * (i + 1), currency: 'THB' }));
    for (const qrCode of qrCodes.slice(0, 3)) await client.testHelpers.succeed(qrCode.payment_id);
    await client.refunds.create({ payment_id: qrCodes[0]!.payment_id, amount: 100 });

    counting.urls.length = 0;
    const all: Transaction[] = [];
    for await (const transaction of client.transactions.list({ limit: 2 })) all.push(transaction);
    expect(all).toHaveLength(6); // five payments and one refund
    expect(new Set(all.map((t) => t.transaction_id)).size).toBe(6);
    expect(all[0]).toMatchObject({ type: 'refund', amount: -100, status: 'succeeded' });
    expect(counting.urls).toHaveLength(3); // 2 + 2 + 2, the last page says no more
    expect(counting.urls.map((url) => new URL(url).search)).toEqual(['?limit=2&offset=0', '?limit=2&offset=2', '?limit=2&offset=4']);

    const succeeded = await client.transactions.list({ status: 'succeeded', type: 'payment', limit: 2 }).toArray();
    expect(succeeded.map((t) => t.payment_id).sort()).toEqual(
      qrCodes
        .slice(0, 3)
        .map((q) => q.payment_id)
        .sort(),
    );

    const page = await client.transactions.list({ type: 'payment' }).page({ limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 2, hasMore: true });
    expect(page.data).toHaveLength(2);

    const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10); // a date filter is a Bangkok day (UTC+7)
    expect((await client.transactions.list({ start_date: today, end_date: today }).page()).total).toBe(6);
  });

  it('iterates 100 at a time by default, starting where asked', async () => {
    const counting = countingFetch();
    const client = await clientForNewMerchant(server, { fetch: counting.fetch });
    for (let i = 0; i < 3; i += 1) await client.qrCodes.create({ amount: 1_000, currency: 'THB' });
    counting.urls.length = 0;
    expect(await client.transactions.list({ offset: 1 }).toArray()).toHaveLength(2);
    expect(counting.urls.map((url) => new URL(url).search)).toEqual(['?limit=100&offset=1']);
  });
});

describe('webhooks', () => {
  it('registers, lists, reads, shows the secret and deliveries of, and deletes a webhook', async () => {
    const client = await clientForNewMerchant(server);
    const secret = 'whsec_DQyO8ZZk+RuOEFN/mxUnfq3cOKKi8/hb23z3CKBh0Nw=';
    const webhook = await client.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['payment.succeeded', 'refund.completed'], secret });
    expect(webhook).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['payment.succeeded', 'refund.completed'], status: 'active' });
    const generated = await client.webhooks.create({ url: 'http://127.0.0.1:9/other', events: ['payment.failed'] });

    expect(await client.webhooks.retrieve(webhook.webhook_id)).toEqual(webhook);
    expect(await client.webhooks.secret(webhook.webhook_id)).toEqual({ secret });
    expect((await client.webhooks.secret(generated.webhook_id)).secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/);

    const listed = await client.webhooks.list({ limit: 1 }).toArray();
    expect(listed.map((w) => w.webhook_id)).toEqual([generated.webhook_id, webhook.webhook_id]);
    expect(await client.webhooks.list().page()).toMatchObject({ total: 2, hasMore: false });

    const qrCode = await client.qrCodes.create({ amount: 10_000, currency: 'THB' });
    await client.testHelpers.succeed(qrCode.payment_id);
    await client.refunds.create({ payment_id: qrCode.payment_id });
    const deliveries = await client.webhooks.deliveries(webhook.webhook_id, { limit: 1 }).toArray();
    expect(deliveries.map((d) => d.event_type)).toEqual(['refund.completed', 'payment.succeeded']);
    expect(deliveries[0]).toMatchObject({ webhook_id: webhook.webhook_id, event_id: expect.stringMatching(/^evt_/) });
    expect(await client.webhooks.deliveries(generated.webhook_id).page()).toMatchObject({ total: 0, data: [], hasMore: false });

    expect(await client.webhooks.delete(webhook.webhook_id)).toEqual({ webhook_id: webhook.webhook_id, deleted: true });
    await expect(client.webhooks.retrieve(webhook.webhook_id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.webhooks.list().page()).total).toBe(1);
  });

  it('answers invalid_url for a host that does not resolve (the sandbox has no DNS)', async () => {
    const client = await clientForNewMerchant(server);
    await expect(client.webhooks.create({ url: 'https://example.invalid/hook', events: ['payment.succeeded'] })).rejects.toMatchObject({
      status: 422,
      code: 'invalid_url',
      param: 'url',
    });
  });
});

describe('webhook management and events', () => {
  it('updates, rotates the secret of, tests and retries a delivery of a webhook', async () => {
    const client = await clientForNewMerchant(server);
    const webhook = await client.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['payment.succeeded'] });
    const updated = await client.webhooks.update(webhook.webhook_id, { url: 'http://127.0.0.1:9/moved', events: ['payment.pending'], status: 'disabled' });
    expect(updated).toEqual({ ...webhook, url: 'http://127.0.0.1:9/moved', events: ['payment.pending'], status: 'disabled' });
    expect((await client.webhooks.update(webhook.webhook_id, { status: 'active' })).status).toBe('active');

    const before = await client.webhooks.secret(webhook.webhook_id);
    const rotated = await client.webhooks.rotateSecret(webhook.webhook_id, { expire_previous_in_seconds: 60 });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(before.secret);
    expect(await client.webhooks.secret(webhook.webhook_id)).toEqual(rotated);
    expect((await client.webhooks.rotateSecret(webhook.webhook_id)).secret).not.toBe(rotated.secret);

    const test = await client.webhooks.sendTest(webhook.webhook_id);
    expect(test).toMatchObject({ webhook_id: webhook.webhook_id, event_type: 'webhook.test', status: 'pending', attempts: 0 });
    const retried = await client.webhooks.retryDelivery(webhook.webhook_id, test.delivery_id);
    expect(retried).toMatchObject({ delivery_id: test.delivery_id, event_id: test.event_id, status: 'pending' });
    await expect(client.webhooks.retryDelivery(webhook.webhook_id, 'whd_unknown')).rejects.toMatchObject({ status: 404, code: 'delivery_not_found' });
    await expect(client.webhooks.update('wh_unknown', { status: 'active' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists events across pages with filters, and retrieves one exactly as listed', async () => {
    const client = await clientForNewMerchant(server);
    const payments = [];
    for (let i = 0; i < 3; i++) payments.push((await client.qrCodes.create({ amount: 10_000 + i, currency: 'THB' })).payment_id);
    await client.testHelpers.succeed(payments[0] ?? '');

    const all = await client.events.list({ limit: 2 }).toArray();
    expect(all.map((e) => e.event)).toEqual(['payment.succeeded', 'payment.pending', 'payment.pending', 'payment.pending']);
    expect(await client.events.list({ limit: 2 }).page()).toMatchObject({ total: 4, hasMore: true });
    const pending = [];
    for await (const event of client.events.list({ type: 'payment.pending' })) pending.push(event);
    expect(pending).toHaveLength(3);
    expect(await client.events.retrieve(all[0]?.id ?? '')).toEqual(all[0]);
    await expect(client.events.retrieve('evt_unknown')).rejects.toMatchObject({ status: 404, code: 'event_not_found' });
    await expect(client.events.list({ start_date: 'yesterday' }).page()).rejects.toMatchObject({ status: 400, code: 'invalid_parameters' });
  });
});

describe('tills', () => {
  it('creates, lists, retrieves, rolls and closes a till; a QR code and a static payment at it carry its till_id', async () => {
    const client = await clientForNewMerchant(server);
    const till = await client.tills.create({ name: 'Front counter' });
    expect(till).toMatchObject({ name: 'Front counter', status: 'active' });
    const second = await client.tills.create({ name: 'Back counter' });
    expect((await client.tills.list({ limit: 1 }).toArray()).map((t) => t.till_id)).toEqual([second.till_id, till.till_id]);
    expect(await client.tills.retrieve(till.till_id)).toEqual(till);

    const qrCode = await client.qrCodes.create({ amount: 15_000, currency: 'THB', till_id: till.till_id });
    expect(qrCode.till_id).toBe(till.till_id);
    const paid = await client.testHelpers.payTill(till.till_id, { amount: 12_000 });
    expect(paid).toMatchObject({ status: 'succeeded', amount: 12_000, till_id: till.till_id, reference: null });
    expect((await client.payments.list({ till_id: till.till_id }).toArray()).map((p) => p.payment_id)).toEqual([paid.payment_id, qrCode.payment_id]);

    const rolled = await client.tills.rollDisplayUrl(till.till_id);
    expect(rolled.display_url).not.toBe(till.display_url);
    expect(await client.tills.close(till.till_id)).toMatchObject({ status: 'closed' });
    await expect(client.qrCodes.create({ amount: 15_000, currency: 'THB', till_id: till.till_id })).rejects.toMatchObject({
      status: 422,
      code: 'till_unavailable',
      param: 'till_id',
    });
    await expect(client.tills.retrieve('till_unknown')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client', () => {
  it('reaches the API under /Thai/v1 of baseUrl, with a trailing slash or not', async () => {
    const { apiKey } = await server.merchant();
    const counting = countingFetch();
    const client = new PaymentQrClient({ apiKey, baseUrl: `${server.url}/`, fetch: counting.fetch });
    await client.transactions.list().page();
    expect(counting.urls).toEqual([`${server.url}/Thai/v1/transactions`]);
  });
});
