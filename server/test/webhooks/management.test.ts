import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { eventually, usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

const { server } = usingTestServer({ env: webhookEnv });
const receiver = usingReceiver();

const merchant = async (): Promise<ApiClient> => apiClient(server.url, await server.merchant());
const patch = (api: ApiClient, id: string, body: unknown) => api.send('PATCH', `/Thai/v1/webhooks/${id}`, body);
const receivedFor = (path: string, paymentId: string) => receiver.at(path).filter((d) => d.payload?.data?.payment_id === paymentId);

describe('PATCH /Thai/v1/webhooks/{webhook_id}', () => {
  it('changes the URL and the kinds, answers the record, and delivers to the new URL from then on', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/before-move', ['payment.pending']);
    const url = receiver.endpoint('/after-move');
    receiver.verifyWith('/after-move', hook.secret);
    const res = await patch(api, hook.webhookId, { url, events: ['payment.pending', 'payment.succeeded'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ webhook_id: hook.webhookId, url, events: ['payment.pending', 'payment.succeeded'], status: 'active' });
    expect(res.text).not.toMatch(/whsec_/);
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}`)).body).toEqual(res.body);

    const paymentId = await newPayment(api);
    await api.post(`/Thai/v1/test/payments/${paymentId}/succeed`);
    await eventually(() => receivedFor('/after-move', paymentId).length === 2, 'both kinds at the new URL');
    expect(receivedFor('/after-move', paymentId).every((d) => d.verified)).toBe(true);
    expect(receivedFor('/before-move', paymentId)).toEqual([]);
  });

  it('a disabled endpoint gets nothing; re-enabled, it gets the events that follow', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/toggled', ['payment.pending']);
    const witness = await subscribe(api, receiver, '/toggle-witness', ['payment.pending']);
    expect((await patch(api, hook.webhookId, { status: 'disabled' })).body.status).toBe('disabled');

    const whileDisabled = await newPayment(api);
    // The witness got it, so the dispatcher has been through this event.
    await eventually(() => receivedFor('/toggle-witness', whileDisabled).length === 1, 'the witness delivery');
    await eventually(async () => (await deliveriesOf(api, witness.webhookId)).every((d) => d.status === 'delivered'), 'the witness settled');
    expect(receivedFor('/toggled', whileDisabled)).toEqual([]);
    expect(await deliveriesOf(api, hook.webhookId)).toEqual([]);

    expect((await patch(api, hook.webhookId, { status: 'active' })).body.status).toBe('active');
    const afterwards = await newPayment(api);
    await eventually(() => receivedFor('/toggled', afterwards).length === 1, 'the delivery after re-enabling');
    expect(receivedFor('/toggled', whileDisabled)).toEqual([]);
    expect(receivedFor('/toggled', afterwards)[0]?.verified).toBe(true);
  });

  it('disabling marks what was still pending failed, and the deliveries stay listed', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/down-then-disabled', ['payment.pending'], () => 503);
    await newPayment(api);
    await eventually(async () => (await deliveriesOf(api, hook.webhookId)).some((d) => d.attempts >= 1 && d.status === 'pending'), 'a delivery awaiting retry');
    await patch(api, hook.webhookId, { status: 'disabled' });
    const [delivery] = await deliveriesOf(api, hook.webhookId);
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(delivery.last_error).toMatch(/disabled/);
  });

  it('re-enables an endpoint that a 410 Gone disabled', async () => {
    const api = await merchant();
    let gone = true;
    const hook = await subscribe(api, receiver, '/gone-then-back', ['payment.pending'], () => (gone ? 410 : 200));
    await newPayment(api);
    await eventually(async () => (await api.get(`/Thai/v1/webhooks/${hook.webhookId}`)).body.status === 'disabled', 'disabled by 410');
    gone = false;
    expect((await patch(api, hook.webhookId, { status: 'active' })).body.status).toBe('active');
    const paymentId = await newPayment(api);
    const delivery = await eventually(() => receivedFor('/gone-then-back', paymentId)[0], 'a delivery after re-enabling');
    expect(delivery).toMatchObject({ answered: 200, verified: true });
  });

  it.each([
    ['an empty body', {}],
    ['an unknown field', { secret: 'whsec_x' }],
    ['an empty events list', { events: [] }],
    ['an unknown kind', { events: ['payment.refunded'] }],
    ['a repeated kind', { events: ['payment.pending', 'payment.pending'] }],
    ['an unknown status', { status: 'paused' }],
  ])('answers 400 invalid_request for %s', async (_what, body) => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/bad-patch', ['payment.pending']);
    expectEnvelope(await patch(api, hook.webhookId, body), 400, 'invalid_request');
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}`)).body.events).toEqual(['payment.pending']);
  });

  it('answers 422 invalid_url for a URL that is not absolute, and changes nothing', async () => {
    const api = await merchant();
    const hook = await subscribe(api, receiver, '/kept-url', ['payment.pending']);
    const res = await patch(api, hook.webhookId, { url: '/relative', status: 'disabled' });
    expectEnvelope(res, 422, 'invalid_url');
    expect((await api.get(`/Thai/v1/webhooks/${hook.webhookId}`)).body).toMatchObject({ url: hook.url, status: 'active' });
  });

  it("answers 404 webhook_not_found for an unknown id, a deleted one and another merchant's, alike", async () => {
    const [api, other] = [await merchant(), await merchant()];
    const theirs = await subscribe(other, receiver, '/theirs', ['payment.pending']);
    const deleted = await subscribe(api, receiver, '/deleted', ['payment.pending']);
    await api.delete(`/Thai/v1/webhooks/${deleted.webhookId}`);
    for (const id of ['wh_doesnotexist000000000000', deleted.webhookId, theirs.webhookId]) {
      expectEnvelope(await patch(api, id, { status: 'disabled' }), 404, 'webhook_not_found');
      expectEnvelope(await patch(api, id, { url: 'http://127.0.0.1:1/x' }), 404, 'webhook_not_found');
    }
    expect((await other.get(`/Thai/v1/webhooks/${theirs.webhookId}`)).body.status).toBe('active');
  });

  it('answers 401 without a key', async () => {
    expectEnvelope(await apiClient(server.url).send('PATCH', '/Thai/v1/webhooks/wh_x', { status: 'active' }), 401, 'authentication_failed');
  });
});
