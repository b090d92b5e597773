import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { purgeExpiredWebhookData } from '../../src/app/events.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { eventually, type ReceivedDelivery, usingReceiver } from '../support/receiver.js';
import { manualClock, usingTestServer } from '../support/test-server.js';
import { newPayment, subscribe, webhookEnv } from './fixtures.js';

const clock = manualClock();

const { server } = usingTestServer({ env: webhookEnv, clock });
const receiver = usingReceiver();

const merchant = async (): Promise<ApiClient> => apiClient(server.url, await server.merchant());
const rotate = (api: ApiClient, id: string, body?: unknown) => api.post(`/Thai/v1/webhooks/${id}/rotate-secret`, body);
const signaturesOf = (d: ReceivedDelivery) => String(d.headers['webhook-signature']).split(' ');
const verifiesWith = (secret: string, d: ReceivedDelivery): boolean => {
  try {
    new Webhook(secret).verify(d.body, { 'webhook-id': d.id, 'webhook-timestamp': d.timestamp, 'webhook-signature': String(d.headers['webhook-signature']) });
    return true;
  } catch {
    return false;
  }
};
const deliveryOf = (path: string, paymentId: string) =>
  eventually(() => receiver.at(path).find((d) => d.payload?.data?.payment_id === paymentId), `the delivery of ${paymentId} at ${path}`);
const currentSecret = async (id: string): Promise<string> =>
  (await server.running.runtime.db.knex('webhooks').where({ id }).first<{ secret: string }>('secret')).secret;
/** The rotated-out secrets still kept for a webhook, newest first. */
const earlierSecrets = (id: string) =>
  server.running.runtime.db
    .knex('webhook_earlier_secrets')
    .where({ webhook_id: id })
    .orderBy('retired_at', 'desc')
    .select<{ secret: string; expires_at: Date }[]>('secret', 'expires_at');

describe('POST /Thai/v1/webhooks/{webhook_id}/rotate-secret', () => {
  it('receivers switch from the old secret to the new one without losing an event; after expiry only the new one signs', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/rotating', ['payment.pending']);
    const before = await deliveryOf('/rotating', await newPayment(api));
    expect(signaturesOf(before)).toHaveLength(1);

    const rotated = await rotate(api, hook.webhookId, { expire_previous_in_seconds: 120 });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(Object.keys(rotated.body)).toEqual(['secret']);
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(newSecret).not.toBe(hook.secret);
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}/secret`)).body.secret).toBe(newSecret);

    // The receiver still verifies with the old secret: every event passes, signed by both.
    const paid = [await newPayment(api), await newPayment(api)];
    const whileOld = await Promise.all(paid.map((id) => deliveryOf('/rotating', id)));
    for (const d of whileOld) {
      expect(d.verified).toBe(true);
      expect(signaturesOf(d)).toHaveLength(2);
      expect(verifiesWith(newSecret, d) && verifiesWith(hook.secret, d)).toBe(true);
    }

    // It switches to the new secret: the next events pass too.
    receiver.verifyWith('/rotating', newSecret);
    const whileNew = await deliveryOf('/rotating', await newPayment(api));
    expect(whileNew.verified).toBe(true);
    expect(verifiesWith(hook.secret, whileNew)).toBe(true);

    // Past the window the old secret signs nothing and is forgotten.
    clock.advance(121_000);
    const afterExpiry = await deliveryOf('/rotating', await newPayment(api));
    expect(signaturesOf(afterExpiry)).toHaveLength(1);
    expect(verifiesWith(newSecret, afterExpiry)).toBe(true);
    expect(verifiesWith(hook.secret, afterExpiry)).toBe(false);
    await purgeExpiredWebhookData(server.running.runtime.services);
    expect(await currentSecret(hook.webhookId)).toBe(newSecret);
    expect(await earlierSecrets(hook.webhookId)).toEqual([]);

    expect(receiver.at('/rotating').filter((d) => !d.verified)).toEqual([]);
    expect(receiver.at('/rotating')).toHaveLength(5);
  });

  it('rotating again keeps each earlier secret signing until its own expiry: three signatures, then two', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/rotating-twice', ['payment.pending']);
    const second: string = (await rotate(api, hook.webhookId, { expire_previous_in_seconds: 120 })).body.secret;
    clock.advance(10_000);
    const third: string = (await rotate(api, hook.webhookId, { expire_previous_in_seconds: 600 })).body.secret;

    const both = await deliveryOf('/rotating-twice', await newPayment(api));
    expect(signaturesOf(both)).toHaveLength(3);
    for (const secret of [hook.secret, second, third]) {
      const own = signaturesOf(both).filter((signature) => verifiesWith(secret, { ...both, headers: { ...both.headers, 'webhook-signature': signature } }));
      expect(own, secret).toHaveLength(1);
    }

    // The first secret's own window (120 s after the first rotation) ends; the second's (600 s) goes on.
    clock.advance(111_000);
    const afterFirst = await deliveryOf('/rotating-twice', await newPayment(api));
    expect(signaturesOf(afterFirst)).toHaveLength(2);
    expect(verifiesWith(hook.secret, afterFirst)).toBe(false);
    expect(verifiesWith(second, afterFirst) && verifiesWith(third, afterFirst)).toBe(true);
    await purgeExpiredWebhookData(server.running.runtime.services);
    expect((await earlierSecrets(hook.webhookId)).map((s) => s.secret)).toEqual([second]);
  });

  it('a third rotation within the windows drops the oldest: never more than three signatures', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/rotating-thrice', ['payment.pending']);
    const secrets = [hook.secret];
    for (let i = 0; i < 3; i++) {
      secrets.push((await rotate(api, hook.webhookId, { expire_previous_in_seconds: 3600 })).body.secret);
      clock.advance(1_000);
    }
    const d = await deliveryOf('/rotating-thrice', await newPayment(api));
    expect(signaturesOf(d)).toHaveLength(3);
    expect(secrets.map((secret) => verifiesWith(secret, d))).toEqual([false, true, true, true]);
    expect((await earlierSecrets(hook.webhookId)).map((s) => s.secret)).toEqual([secrets[2], secrets[1]]);
  });

  it('keeps the previous secret 24 hours by default', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/default-window', ['payment.pending']);
    const rotatedAt = clock.now().getTime();
    expect((await rotate(api, hook.webhookId)).status).toBe(200);
    const [stored, ...more] = await earlierSecrets(hook.webhookId);
    expect(more).toEqual([]);
    expect(stored?.secret).toBe(hook.secret);
    expect(stored?.expires_at.getTime()).toBe(rotatedAt + 86_400_000);
  });

  it('with 0 the previous secret stops signing at once and is not kept', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/at-once', ['payment.pending']);
    const { secret } = (await rotate(api, hook.webhookId, { expire_previous_in_seconds: 0 })).body;
    receiver.verifyWith('/at-once', secret);
    const d = await deliveryOf('/at-once', await newPayment(api));
    expect(d.verified).toBe(true);
    expect(signaturesOf(d)).toHaveLength(1);
    expect(verifiesWith(hook.secret, d)).toBe(false);
    expect(await earlierSecrets(hook.webhookId)).toEqual([]);
  });

  it('replays the same secret for the same Idempotency-Key, and rotates again for a new one', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/idempotent-rotation', ['payment.pending']);
    const first = await rotate(api, hook.webhookId, undefined);
    const again = await api.post(`/Thai/v1/webhooks/${hook.webhookId}/rotate-secret`, { expire_previous_in_seconds: 60 }, { idempotencyKey: 'rotate-1' });
    const replay = await api.post(`/Thai/v1/webhooks/${hook.webhookId}/rotate-secret`, { expire_previous_in_seconds: 60 }, { idempotencyKey: 'rotate-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.secret).toBe(again.body.secret);
    expect(again.body.secret).not.toBe(first.body.secret);
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}/secret`)).body.secret).toBe(again.body.secret);
  });

  it.each([
    ['-1', { expire_previous_in_seconds: -1 }],
    ['604801', { expire_previous_in_seconds: 604_801 }],
    ['1.5', { expire_previous_in_seconds: 1.5 }],
    ['a string', { expire_previous_in_seconds: '60' }],
    ['an unknown field', { secret: 'whsec_x' }],
  ])('answers 400 invalid_request for %s, and keeps the secret', async (_what, body) => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/bad-rotation', ['payment.pending']);
    const res = await rotate(api, hook.webhookId, body);
    expectEnvelope(res, 400, 'invalid_request');
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}/secret`)).body.secret).toBe(hook.secret);
  });

  it("answers 404 webhook_not_found for an unknown id and another merchant's webhook, whose secret stays", async () => {
    const [api, other] = [await merchant(), await merchant()];
    const theirs = await subscribe(other, receiver, '/not-yours', ['payment.pending']);
    expectEnvelope(await rotate(api, 'wh_doesnotexist000000000000'), 404, 'webhook_not_found');
    expectEnvelope(await rotate(api, theirs.webhookId), 404, 'webhook_not_found');
    expect((await other.get(`/Thai/v1/webhooks/${theirs.webhookId}/secret`)).body.secret).toBe(theirs.secret);
  });
});
