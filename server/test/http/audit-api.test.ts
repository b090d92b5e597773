import { describe, expect, it } from 'vitest';
import { listApiKeys } from '../../src/app/api-keys.js';
import type { AuditAction, AuditEntry } from '../../src/domain/audit.js';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { apiClient, expectEnvelope, type ApiClient, type ApiResponse } from '../support/http.js';
import { usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { newPayment } from '../webhooks/fixtures.js';

/**
 * Actions through the API are audited in the transaction that does them: one entry each, naming the key by its last
 * four, the channel `api` and the client address; an action that fails leaves none, and a replay adds none.
 */

const { server } = usingTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, backgroundJobs: false });
const receiver = usingReceiver();

interface Merchant {
  id: string;
  api: ApiClient;
  /** The key acting: a restricted one, to show that restricted keys are audited as any other. */
  apiKey: string;
}

async function merchant(): Promise<Merchant> {
  const { id, apiKey: owner } = await server.merchant({ payoutAccount });
  const apiKey = await server.apiKey(id, ['qr_codes:write', 'payments:write', 'refunds:write', 'withdrawals:write', 'webhooks:write']);
  await paid(apiClient(server.url, { apiKey: owner }), 100_000);
  return { id, api: apiClient(server.url, { apiKey }), apiKey };
}

/** The entries an action added to the merchant's audit log. */
async function addedBy(m: Merchant, action: () => Promise<ApiResponse>): Promise<{ res: ApiResponse; added: AuditEntry[] }> {
  const before = new Set((await server.auditEntries(m.id)).map((entry) => entry.id));
  const res = await action();
  return { res, added: (await server.auditEntries(m.id)).filter((entry) => !before.has(entry.id)) };
}

async function expectOneEntry(m: Merchant, action: () => Promise<ApiResponse>, expected: AuditAction, subjectOf: (res: ApiResponse) => string) {
  const { res, added } = await addedBy(m, action);
  expect(res.status, res.text).toBe(200);
  const keyId = (await listApiKeys(server.running.runtime.services, m.id)).find((key) => key.last4 === m.apiKey.slice(-4))!.id;
  expect(added).toEqual([
    {
      id: expect.stringMatching(/^aud_/),
      merchantId: m.id,
      context: { actor: { kind: 'api_key', keyId, last4: m.apiKey.slice(-4) }, channel: 'api', clientAddress: '127.0.0.1' },
      action: expected,
      subjectId: subjectOf(res),
      details: expect.any(Object),
      createdAt: expect.any(Date),
    },
  ]);
  return { res, entry: added[0]! };
}

async function webhookOf(m: Merchant): Promise<string> {
  const created = await m.api.post('/Thai/v1/webhooks', { url: receiver.endpoint('/audited'), events: ['payment.succeeded'] });
  expect(created.status, created.text).toBe(200);
  return created.body.webhook_id as string;
}

describe('the audit log of API actions', () => {
  it('records a refund with the key that made it, its amount and the payment', async () => {
    const m = await merchant();
    const paymentId = await paid(m.api, 30_000);
    const { entry } = await expectOneEntry(
      m,
      () => m.api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 10_000, reason: 'damaged' }, { idempotencyKey: 'refund-1' }),
      'refund_created',
      (res) => res.body.refund_id,
    );
    expect(entry.details).toEqual({ payment_id: paymentId, amount: 10_000, reason: 'damaged' });
    // A replay answers again without doing it again, so nothing more is recorded.
    const { res, added } = await addedBy(m, () =>
      m.api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 10_000, reason: 'damaged' }, { idempotencyKey: 'refund-1' }),
    );
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(added).toEqual([]);
  });

  it('records nothing for an action that fails: a refund over the refundable amount, a withdrawal over the balance, an unknown webhook', async () => {
    const m = await merchant();
    const paymentId = await paid(m.api, 30_000);
    const failures: [() => Promise<ApiResponse>, number, string][] = [
      [() => m.api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 30_001 }), 422, 'invalid_amount'],
      [() => m.api.post('/Thai/v1/withdrawals', { amount: 10_000_000 }), 402, 'insufficient_funds'],
      [() => m.api.get('/Thai/v1/webhooks/wh_unknown/secret'), 404, 'webhook_not_found'],
      [() => m.api.delete('/Thai/v1/webhooks/wh_unknown'), 404, 'webhook_not_found'],
      [() => m.api.post('/Thai/v1/webhooks/wh_unknown/rotate-secret', {}), 404, 'webhook_not_found'],
      [() => m.api.post(`/Thai/v1/test/payments/${paymentId}/fail`), 422, 'payment_not_pending'],
    ];
    for (const [action, status, code] of failures) {
      const { res, added } = await addedBy(m, action);
      expectEnvelope(res, status, code);
      expect(added).toEqual([]);
    }
  });

  it('records a withdrawal', async () => {
    const m = await merchant();
    const { entry } = await expectOneEntry(
      m,
      () => m.api.post('/Thai/v1/withdrawals', { amount: 20_000 }),
      'withdrawal_requested',
      (res) => res.body.withdrawal_id,
    );
    expect(entry.details).toEqual({ amount: 20_000 });
  });

  it('records the completion of a test payment through each test helper', async () => {
    const m = await merchant();
    for (const outcome of ['succeed', 'fail', 'expire'] as const) {
      const paymentId = await newPayment(m.api);
      const { entry } = await expectOneEntry(
        m,
        () => m.api.post(`/Thai/v1/test/payments/${paymentId}/${outcome}`),
        'test_payment_completed',
        () => paymentId,
      );
      expect(entry.details).toEqual({ outcome: { succeed: 'succeeded', fail: 'failed', expire: 'expired' }[outcome] });
    }
  });

  it('records every change to a webhook, each reveal of its secret (a GET), each test sent and each retry', async () => {
    const m = await merchant();
    const created = await expectOneEntry(
      m,
      () => m.api.post('/Thai/v1/webhooks', { url: receiver.endpoint('/audited'), events: ['payment.succeeded'] }),
      'webhook_created',
      (res) => res.body.webhook_id,
    );
    const id = created.res.body.webhook_id as string;
    const updated = await expectOneEntry(
      m,
      () => m.api.send('PATCH', `/Thai/v1/webhooks/${id}`, { status: 'disabled' }),
      'webhook_updated',
      () => id,
    );
    expect(updated.entry.details).toEqual({ status: 'disabled' });
    await expectOneEntry(
      m,
      () => m.api.get(`/Thai/v1/webhooks/${id}/secret`),
      'webhook_secret_revealed',
      () => id,
    );
    await expectOneEntry(
      m,
      () => m.api.get(`/Thai/v1/webhooks/${id}/secret`),
      'webhook_secret_revealed',
      () => id,
    );
    await expectOneEntry(
      m,
      () => m.api.post(`/Thai/v1/webhooks/${id}/rotate-secret`, { expire_previous_in_seconds: 0 }),
      'webhook_secret_rotated',
      () => id,
    );
    const sent = await expectOneEntry(
      m,
      () => m.api.post(`/Thai/v1/webhooks/${id}/test`),
      'webhook_test_sent',
      () => id,
    );
    const deliveryId = sent.res.body.delivery_id as string;
    await expectOneEntry(
      m,
      () => m.api.post(`/Thai/v1/webhooks/${id}/deliveries/${deliveryId}/retry`),
      'delivery_retried',
      () => deliveryId,
    );
    await expectOneEntry(
      m,
      () => m.api.delete(`/Thai/v1/webhooks/${id}`),
      'webhook_deleted',
      () => id,
    );
  });

  it('records no reads and no QR code (the hot path writes one statement)', async () => {
    const m = await merchant();
    const id = await webhookOf(m);
    const pos = apiClient(server.url, { apiKey: await server.apiKey(m.id, ['qr_codes:write', 'payments:read']) });
    const quiet: (() => Promise<ApiResponse>)[] = [
      () => pos.post('/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB' }),
      () => pos.get('/Thai/v1/payments'),
      () => m.api.get(`/Thai/v1/webhooks/${id}`),
      () => m.api.get(`/Thai/v1/webhooks/${id}/deliveries`),
    ];
    for (const action of quiet) {
      const { res, added } = await addedBy(m, action);
      expect(res.status, res.text).toBe(200);
      expect(added).toEqual([]);
    }
  });
});
