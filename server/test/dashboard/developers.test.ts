import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys } from '../../src/app/api-keys.js';
import { operatorContext, type AuditAction } from '../../src/domain/audit.js';
import { roles, roleMay, type Ability, type Role } from '../../src/domain/permissions.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

// No dispatcher: deliveries stay as the actions leave them. Loopback URLs are allowed, as for a local receiver.
const { server } = usingTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });

const HOOK_URL = 'http://127.0.0.1:9/hooks/shop';

/** A merchant with an owner, a member of `role`, a webhook with one delivery (a test), and a spare key to revoke. */
async function merchantWith(role: Role) {
  const owner = await dashboardMember(server, { role: 'owner', merchantName: `ร้าน ${role}` });
  const member = role === 'owner' ? owner : await dashboardMember(server, { role, merchantId: owner.merchantId });
  const api = apiClient(`${server.url}/Thai/v1`, { apiKey: owner.apiKey! });
  const hook = await api.post('/webhooks', { url: HOOK_URL, events: ['payment.succeeded'] });
  expect(hook.status, hook.text).toBe(200);
  const test = await api.post(`/webhooks/${hook.body.webhook_id}/test`, {});
  expect(test.status, test.text).toBe(200);
  const spare = await createApiKey(server.running.runtime.services, owner.merchantId, null, operatorContext);
  return { owner, member, webhookId: hook.body.webhook_id as string, deliveryId: test.body.delivery_id as string, spareKeyId: spare.key.id };
}

/**
 * Everything the Developers actions could change, read beside the dashboard (never through an audited read). Key uses
 * so far are written first: the batch's timer must not land one between a "before" and an "after".
 */
async function stateOf(merchantId: string, webhookId: string) {
  await server.running.runtime.keyUsage.flush();
  const s = server.running.runtime.services;
  const repos = s.uow.repos;
  return {
    keys: await listApiKeys(s, merchantId),
    webhooks: (await repos.webhooks.list(merchantId, { limit: 100, offset: 0 })).items,
    secret: await repos.webhooks.secretOf(merchantId, webhookId),
    deliveries: (await repos.deliveries.list(merchantId, webhookId, { limit: 100, offset: 0 })).items,
    audit: await server.auditEntries(merchantId),
  };
}

type Setup = Awaited<ReturnType<typeof merchantWith>>;
/** Each action, and what the member's role needs for it: `api_keys:write` unless told (a key never above its maker). */
const actions: { name: string; audited: AuditAction; path: (m: Setup) => string; form: Record<string, string>; needs?: Ability }[] = [
  {
    name: 'create an unrestricted key',
    audited: 'api_key_created',
    path: () => '/dashboard/developers/keys',
    form: { kind: 'unrestricted' },
    needs: 'api_keys:unrestricted',
  },
  {
    name: 'create a restricted key',
    audited: 'api_key_created',
    path: () => '/dashboard/developers/keys',
    form: { kind: 'restricted', perm_qr_codes: 'write', perm_payments: 'read', perm_refunds: 'none' },
  },
  { name: 'roll the keys', audited: 'api_key_rolled', path: () => '/dashboard/developers/keys/roll', form: { overlap: '1h' }, needs: 'api_keys:unrestricted' },
  { name: 'revoke a key', audited: 'api_key_revoked', path: (m) => `/dashboard/developers/keys/${m.spareKeyId}/revoke`, form: {} },
  {
    name: 'add a webhook',
    audited: 'webhook_created',
    path: () => '/dashboard/developers/webhooks',
    form: { url: 'http://127.0.0.1:9/hooks/second', events: 'refund.completed' },
  },
  {
    name: 'edit a webhook',
    audited: 'webhook_updated',
    path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/edit`,
    form: { url: 'http://127.0.0.1:9/hooks/edited', events: 'payment.failed' },
  },
  { name: 'disable a webhook', audited: 'webhook_updated', path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/status`, form: { status: 'disabled' } },
  { name: 'enable a webhook', audited: 'webhook_updated', path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/status`, form: { status: 'active' } },
  { name: 'send a test event', audited: 'webhook_test_sent', path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/test`, form: {} },
  { name: 'reveal the secret', audited: 'webhook_secret_revealed', path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/secret`, form: {} },
  {
    name: 'rotate the secret',
    audited: 'webhook_secret_rotated',
    path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/rotate`,
    form: { window: '24h' },
  },
  {
    name: 'retry a delivery',
    audited: 'delivery_retried',
    path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/deliveries/${m.deliveryId}/retry`,
    form: {},
  },
  { name: 'delete a webhook', audited: 'webhook_deleted', path: (m) => `/dashboard/developers/webhooks/${m.webhookId}/delete`, form: {} },
];

describe('the Developers pages, every action by every role', () => {
  for (const role of roles) {
    const allowed = roleMay(role, 'api_keys:write');
    expect(allowed).toBe(roleMay(role, 'webhooks:write')); // one set of roles manages both

    it(`${role}: ${allowed ? 'each action its role may do succeeds and leaves one audit entry of the member through the dashboard, the others 403' : '403 for each action and page, nothing changed'}`, async () => {
      const setup = await merchantWith(role);
      const { member, webhookId } = setup;
      const pages = ['/dashboard/developers', '/dashboard/developers/webhooks', `/dashboard/developers/webhooks/${webhookId}`];
      for (const page of pages) expect((await member.client.get(page)).status, page).toBe(allowed ? 200 : 403);
      expect((await member.client.get('/dashboard/developers/events')).status).toBe(roleMay(role, 'events:read') ? 200 : 403); // all but the cashier
      const home = await member.client.get('/dashboard');
      expect(decodeHtml(home.text).includes('href="/dashboard/developers"')).toBe(allowed);

      for (const action of actions) {
        const before = await stateOf(member.merchantId, webhookId);
        const res = await member.client.post(action.path(setup), action.form);
        const after = await stateOf(member.merchantId, webhookId);
        if (!allowed || !roleMay(role, action.needs ?? 'api_keys:write')) {
          expect(res.status, action.name).toBe(403);
          expect(after, action.name).toEqual(before);
          continue;
        }
        expect([200, 303], `${action.name}: ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
        const added = after.audit.filter((entry) => !before.audit.some((earlier) => earlier.id === entry.id));
        expect(added, action.name).toHaveLength(1);
        expect(added[0]).toMatchObject({
          merchantId: member.merchantId,
          action: action.audited,
          context: { actor: { kind: 'user', userId: member.userId, email: member.email }, channel: 'dashboard', clientAddress: '127.0.0.1' },
        });
      }
    });
  }
});

describe('what the Developers actions do', () => {
  let developer: DashboardMember;
  let setup: Setup;
  beforeAll(async () => {
    setup = await merchantWith('developer');
    developer = setup.member;
  });

  it('shows a new restricted key once; it may make QR codes and read payments, nothing else', async () => {
    const created = await developer.client.post('/dashboard/developers/keys', { kind: 'restricted', perm_qr_codes: 'write', perm_payments: 'read' });
    expect(created.status).toBe(200);
    const key = decodeHtml(/id="new-key-value">([^<]+)</.exec(created.text)![1]!);
    expect(key).toMatch(/^rk_test_/);
    const listed = await developer.client.get('/dashboard/developers');
    expect(listed.text).not.toContain(key);
    expect(listed.text).toContain('qr_codes:write, payments:read');
    expect(listed.text).toContain(`…${key.slice(-4)}`);

    const pos = apiClient(`${server.url}/Thai/v1`, { apiKey: key });
    expect((await pos.post('/qr-codes', { amount: 10000, currency: 'THB', reference: 'POS-1' })).status).toBe(200);
    expect((await pos.get('/balance')).status).toBe(403);
  });

  it('refuses a restricted key with no permission picked, and a URL that is not one, with the reason and nothing made', async () => {
    const before = await stateOf(developer.merchantId, setup.webhookId);
    const none = await developer.client.post('/dashboard/developers/keys', { kind: 'restricted' });
    expect(none.status).toBe(422);
    expect(none.text).toContain('เลือกสิทธิ์อย่างน้อยหนึ่งรายการ');
    const badUrl = await developer.client.post('/dashboard/developers/webhooks', { url: 'ftp://example', events: 'payment.succeeded' });
    expect(badUrl.status).toBe(422);
    expect(badUrl.text).toContain('ใช้ URL นี้ไม่ได้');
    const noEvents = await developer.client.post('/dashboard/developers/webhooks', { url: HOOK_URL });
    expect(noEvents.status).toBe(422);
    expect(await stateOf(developer.merchantId, setup.webhookId)).toEqual(before);
  });

  it('refuses a Developers form without the session token or from another origin: 403, nothing changed', async () => {
    const before = await stateOf(developer.merchantId, setup.webhookId);
    expect((await developer.client.post('/dashboard/developers/keys', { kind: 'unrestricted' }, { csrf: null })).status).toBe(403);
    expect((await developer.client.post(`/dashboard/developers/webhooks/${setup.webhookId}/secret`, {}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await developer.client.post(`/dashboard/developers/webhooks/${setup.webhookId}/delete`, {}, { csrf: 'forged' })).status).toBe(403);
    expect(await stateOf(developer.merchantId, setup.webhookId)).toEqual(before);
  });

  it('rolls with the chosen overlap (an owner): the old unrestricted key stops then, restricted ones stay', async () => {
    const s = server.running.runtime.services;
    const res = await setup.owner.client.post('/dashboard/developers/keys/roll', { overlap: '3d' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/id="new-key-value">sk_test_/);
    const keys = await listApiKeys(s, developer.merchantId);
    const stopping = keys.filter((k) => k.permissions === null && k.expiresAt !== null);
    expect(stopping.length).toBeGreaterThan(0);
    for (const key of stopping) expect(key.expiresAt!.getTime() - s.clock.now().getTime()).toBeLessThanOrEqual(3 * 86_400_000);
    expect(keys.filter((k) => k.permissions !== null).every((k) => k.expiresAt === null)).toBe(true);
  });

  it('reveals and rotates the secret as the API reads it; a webhook of another merchant is not found', async () => {
    const s = server.running.runtime.services;
    const revealed = await developer.client.post(`/dashboard/developers/webhooks/${setup.webhookId}/secret`);
    const secret = decodeHtml(/id="secret-value">([^<]+)</.exec(revealed.text)![1]!);
    expect(secret).toBe(await s.uow.repos.webhooks.secretOf(developer.merchantId, setup.webhookId));
    const rotated = await developer.client.post(`/dashboard/developers/webhooks/${setup.webhookId}/rotate`, { window: 'now' });
    const fresh = decodeHtml(/id="secret-value">([^<]+)</.exec(rotated.text)![1]!);
    expect(fresh).not.toBe(secret);
    expect(fresh).toBe(await s.uow.repos.webhooks.secretOf(developer.merchantId, setup.webhookId));

    const other = await merchantWith('owner');
    expect((await developer.client.get(`/dashboard/developers/webhooks/${other.webhookId}`)).status).toBe(404);
    const before = await stateOf(other.member.merchantId, other.webhookId);
    expect((await developer.client.post(`/dashboard/developers/webhooks/${other.webhookId}/secret`)).status).toBe(404);
    expect((await developer.client.post(`/dashboard/developers/webhooks/${other.webhookId}/delete`)).status).toBe(404);
    expect((await developer.client.post(`/dashboard/developers/keys/${other.spareKeyId}/revoke`)).status).toBe(404);
    expect(await stateOf(other.member.merchantId, other.webhookId)).toEqual(before);
  });

  it('lists events filtered by type, each as its JSON payload', async () => {
    const api = apiClient(`${server.url}/Thai/v1`, { apiKey: setup.owner.apiKey! });
    const qr = await api.post('/qr-codes', { amount: 12345, currency: 'THB', reference: 'EVT-1' });
    expect((await api.post(`/test/payments/${qr.body.payment_id}/succeed`)).status).toBe(200);
    const all = await developer.client.get('/dashboard/developers/events');
    expect(decodeHtml(all.text)).toContain('"event": "payment.succeeded"');
    const events = (await api.get('/events?type=payment.succeeded')).body.events as { id: string }[];
    expect(events.length).toBe(1);
    const filtered = decodeHtml((await developer.client.get('/dashboard/developers/events?type=payment.pending')).text);
    expect(filtered).not.toContain(events[0]!.id);
    const shown = decodeHtml((await developer.client.get('/dashboard/developers/events?type=payment.succeeded&lang=en')).text);
    expect(shown).toContain(JSON.stringify((await api.get(`/events/${events[0]!.id}`)).body, null, 2));
    expect(shown).toContain('<html lang="en">');
  });
});
