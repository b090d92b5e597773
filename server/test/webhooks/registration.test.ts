import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

let url: string;

const webhookFields = ['created_at', 'events', 'status', 'url', 'webhook_id'];
const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

const { server, api } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();
beforeAll(async () => {
  url = receiver.endpoint('/registered');
});

describe('POST /Thai/v1/webhooks', () => {
  it('registers an active webhook without its secret, and sends nothing to the URL', async () => {
    const before = receiver.connections();
    const res = await api.post('/Thai/v1/webhooks', { url, events: ['payment.succeeded', 'refund.completed'] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(webhookFields);
    expect(res.body).toMatchObject({ url, events: ['payment.succeeded', 'refund.completed'], status: 'active' });
    expect(res.body.webhook_id).toMatch(/^wh_/);
    expect(res.text).not.toMatch(/whsec_/);
    expect(receiver.connections()).toBe(before);
  });

  it('generates a Standard Webhooks secret when none is given, readable only through GET .../secret', async () => {
    const created = await api.post('/Thai/v1/webhooks', { url, events: ['payment.pending'] });
    const id = created.body.webhook_id;
    const secret = await api.get(`/Thai/v1/webhooks/${id}/secret`);
    expect(secret.status).toBe(200);
    expect(Object.keys(secret.body)).toEqual(['secret']);
    const bytes = Buffer.from(secret.body.secret.replace(/^whsec_/, ''), 'base64').length;
    expect(secret.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(64);
    for (const path of [`/Thai/v1/webhooks/${id}`, '/Thai/v1/webhooks', `/v1/webhooks/${id}`]) {
      const res = await api.get(path);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret.body.secret.slice(6, 20));
    }
  });

  it.each([24, 32, 64])('keeps a supplied secret of %i bytes', async (bytes) => {
    const secret = secretOf(bytes);
    const created = await api.post('/Thai/v1/webhooks', { url, events: ['payment.pending'], secret });
    expect(created.status).toBe(200);
    expect(created.text).not.toContain(secret);
    expect((await api.get(`/Thai/v1/webhooks/${created.body.webhook_id}/secret`)).body).toEqual({ secret });
  });

  it.each([
    ['an unknown kind', { events: ['payment.refunded'] }],
    ['a kind in the wrong case', { events: ['Payment.Succeeded'] }],
    ['no kinds', { events: [] }],
    ['repeated kinds', { events: ['payment.pending', 'payment.pending'] }],
    ['events not a list', { events: 'payment.pending' }],
    ['a secret without the prefix', { secret: randomBytes(32).toString('base64') }],
    ['a secret too short', { secret: secretOf(16) }],
    ['a secret too long', { secret: secretOf(65) }],
    ['a secret that is not base64', { secret: 'whsec_not*base64!' }],
    ['an empty secret', { secret: '' }],
    ['no url', { url: undefined }],
    ['an unknown field', { description: 'x' }],
  ])('answers 400 invalid_request for %s', async (_what, change) => {
    const before = (await api.get('/Thai/v1/webhooks')).body.total;
    const res = await api.post('/Thai/v1/webhooks', { url, events: ['payment.pending'], ...change });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', type: 'validation_error' });
    expect((await api.get('/Thai/v1/webhooks')).body.total).toBe(before);
  });

  it('replays an idempotent registration instead of registering twice', async () => {
    const merchant = apiClient(server.url, await server.merchant());
    const body = { url, events: ['payment.failed'] };
    const first = await merchant.post('/Thai/v1/webhooks', body, { idempotencyKey: 'hook-1' });
    const again = await merchant.post('/v1/webhooks', body, { idempotencyKey: 'hook-1' });
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await merchant.get('/Thai/v1/webhooks')).body.total).toBe(1);
  });
});

describe('listing, retrieving, deleting', () => {
  it('lists newest first with paging', async () => {
    const merchant = apiClient(server.url, await server.merchant());
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await merchant.post('/Thai/v1/webhooks', { url, events: ['payment.pending'] })).body.webhook_id);
    const page = await merchant.get('/Thai/v1/webhooks?limit=2');
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    const idOf = (w: { webhook_id: string }) => w.webhook_id;
    const all = (await merchant.get('/Thai/v1/webhooks')).body.webhooks.map(idOf);
    expect([...all].sort()).toEqual([...ids].sort());
    const rest = await merchant.get('/Thai/v1/webhooks?limit=2&offset=2');
    expect([...page.body.webhooks, ...rest.body.webhooks].map(idOf)).toEqual(all);
    expect((await merchant.get('/Thai/v1/webhooks?limit=0')).body.error.code).toBe('invalid_parameters');
    expect((await merchant.get(`/Thai/v1/webhooks/${ids[0]}/deliveries?offset=-1`)).body.error.code).toBe('invalid_parameters');
  });

  it("answers 404 webhook_not_found for another merchant's webhook, exactly as for an unknown id", async () => {
    const mine = await api.post('/Thai/v1/webhooks', { url, events: ['payment.pending'] });
    const other = apiClient(server.url, await server.merchant());
    for (const id of [mine.body.webhook_id, 'wh_unknown']) {
      for (const res of [
        await other.get(`/Thai/v1/webhooks/${id}`),
        await other.get(`/Thai/v1/webhooks/${id}/secret`),
        await other.get(`/Thai/v1/webhooks/${id}/deliveries`),
        await other.delete(`/Thai/v1/webhooks/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'webhook_not_found', type: 'not_found' });
      }
    }
    expect((await other.get('/Thai/v1/webhooks')).body.total).toBe(0);
    expect((await api.get(`/Thai/v1/webhooks/${mine.body.webhook_id}`)).status).toBe(200);
  });

  it('deletes a webhook: 404 afterwards, and it receives nothing more', async () => {
    const merchant = apiClient(server.url, await server.merchant());
    const kept = await subscribe(merchant, receiver, '/kept', ['payment.pending']);
    const doomed = await subscribe(merchant, receiver, '/doomed', ['payment.pending']);
    const deleted = await merchant.delete(`/Thai/v1/webhooks/${doomed.webhookId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ webhook_id: doomed.webhookId, deleted: true });
    expect((await merchant.get(`/Thai/v1/webhooks/${doomed.webhookId}`)).status).toBe(404);
    expect((await merchant.delete(`/Thai/v1/webhooks/${doomed.webhookId}`)).status).toBe(404);
    expect((await merchant.get('/Thai/v1/webhooks')).body.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([kept.webhookId]);

    const paymentId = await newPayment(merchant);
    await eventually(() => receiver.at('/kept').some((d) => d.payload.data.payment_id === paymentId), 'the kept webhook delivery');
    await eventually(async () => (await deliveriesOf(merchant, kept.webhookId)).every((d) => d.status === 'delivered'), 'kept delivery recorded');
    expect(receiver.at('/doomed')).toEqual([]);
  });

  it('lists deliveries with paging, newest first', async () => {
    const merchant = apiClient(server.url, await server.merchant());
    const hook = await subscribe(merchant, receiver, '/paged', ['payment.pending']);
    for (let i = 0; i < 3; i++) await newPayment(merchant);
    await eventually(async () => (await deliveriesOf(merchant, hook.webhookId)).filter((d) => d.status === 'delivered').length === 3, 'three deliveries');
    const page = await merchant.get(`/Thai/v1/webhooks/${hook.webhookId}/deliveries?limit=2&offset=1`);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    const all = await deliveriesOf(merchant, hook.webhookId);
    expect(page.body.deliveries).toEqual(all.slice(1, 3));
    const sorted = [...all].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.delivery_id.localeCompare(a.delivery_id));
    expect(all).toEqual(sorted);
  });
});
