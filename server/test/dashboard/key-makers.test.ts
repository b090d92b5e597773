import { describe, expect, it } from 'vitest';
import { listApiKeys } from '../../src/app/api-keys.js';
import type { AuditEntry } from '../../src/domain/audit.js';
import { paid, payoutAccount } from '../balance/fixtures.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { usingTestServer } from '../support/test-server.js';

/**
 * A key never has more power than the member who made it (DECISIONS, v1.3 "Hardening"). The attack of the review: a
 * developer (no refunds, withdrawals or reports by the role table) makes an unrestricted key on the Developers page and,
 * with it, refunds, withdraws and reads statements, the audit log naming only the key. Here it is sent as the
 * dashboard's own forms are (the session cookie, the page's CSRF token, the server's Origin) and refused; what a
 * developer may make works, and the audit entries of a key's use name the member who made it.
 */
const { server } = usingTestServer();

async function team() {
  const owner = await dashboardMember(server, { role: 'owner', merchantName: 'ร้านก๋วยเตี๋ยว' });
  const developer = await dashboardMember(server, { role: 'developer', merchantId: owner.merchantId });
  await server.running.runtime.services.uow.run((tx) => tx.merchants.setPayoutAccount(owner.merchantId, payoutAccount));
  const paymentId = await paid(apiClient(server.url, { apiKey: owner.apiKey! }), 100_000);
  return { owner, developer, paymentId };
}

/** Posts the Developers page's key form as the browser does: the page first, its CSRF token with the form. */
async function makeKey(member: DashboardMember, form: Record<string, string>) {
  const page = await member.client.get('/dashboard/developers');
  expect(page.status).toBe(200);
  const res = await member.client.post('/dashboard/developers/keys', form, { csrf: /name="_csrf" value="([^"]+)"/.exec(page.text)![1]! });
  const key = /id="new-key-value">([^<]+)</.exec(res.text)?.[1];
  return { res, key: key === undefined ? null : decodeHtml(key) };
}

const keysOf = async (merchantId: string) => listApiKeys(server.running.runtime.services, merchantId);
const newEntries = (before: AuditEntry[], after: AuditEntry[]) => after.filter((entry) => !before.some((earlier) => earlier.id === entry.id));

describe('a key never has more power than the member who made it', () => {
  it('refuses a developer an unrestricted key, a roll, and a restricted key that refunds, withdraws or reads reports: 403, nothing made', async () => {
    const { developer } = await team();
    await server.running.runtime.keyUsage.flush(); // the owner's key's last use is written now, not in the middle of a comparison
    const before = await keysOf(developer.merchantId);
    const page = await developer.client.get('/dashboard/developers');
    expect(page.text).not.toContain('value="unrestricted"'); // not offered
    expect(page.text).not.toContain('/dashboard/developers/keys/roll');

    const unrestricted = await makeKey(developer, { kind: 'unrestricted' });
    expect(unrestricted.res.status).toBe(403);
    expect(unrestricted.key).toBeNull();
    const beyondRole: Record<string, string>[] = [
      { perm_refunds: 'write' },
      { perm_withdrawals: 'write' },
      { perm_reports: 'read' },
      { perm_qr_codes: 'write', perm_refunds: 'write' },
    ];
    for (const beyond of beyondRole) {
      const attempt = await makeKey(developer, { kind: 'restricted', ...beyond });
      expect(attempt.res.status, JSON.stringify(beyond)).toBe(403);
      expect(attempt.res.text).toContain('บทบาทของคุณสร้างคีย์ได้เฉพาะสิทธิ์ที่บทบาทนี้มี');
      expect(attempt.key).toBeNull();
    }
    await developer.client.get('/dashboard/developers');
    expect((await developer.client.post('/dashboard/developers/keys/roll', { overlap: 'now' })).status).toBe(403);
    expect(await keysOf(developer.merchantId)).toEqual(before);
  });

  it('lets a developer make a restricted key within its role: it works, records its maker, and its use is audited under the key and the developer', async () => {
    const { developer } = await team();
    const made = await makeKey(developer, { kind: 'restricted', perm_qr_codes: 'write', perm_payments: 'write' });
    expect(made.res.status).toBe(200);
    expect(made.key).toMatch(/^rk_test_/);
    const stored = await server.running.runtime.services.uow.repos.merchants.findByApiKeyHash(server.running.runtime.services.apiKeys.hash(made.key!));
    expect(stored!.madeBy).toEqual({ userId: developer.userId, email: developer.email });

    const pos = apiClient(server.url, { apiKey: made.key! });
    const before = await server.auditEntries(developer.merchantId);
    const paymentId = await paid(pos, 5_000); // the test helper completing a payment is audited
    expect((await pos.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 1_000 })).status).toBe(403);
    expect((await pos.get('/Thai/v1/balance')).status).toBe(403);
    const added = newEntries(before, await server.auditEntries(developer.merchantId));
    expect(added.map((entry) => [entry.action, entry.context.actor])).toEqual([
      [
        'test_payment_completed',
        { kind: 'api_key', keyId: stored!.keyId, last4: made.key!.slice(-4), madeBy: { userId: developer.userId, email: developer.email } },
      ],
    ]);
    const log = await (await dashboardMember(server, { role: 'admin', merchantId: developer.merchantId })).client.get('/dashboard/audit.csv');
    expect(log.text).toContain(developer.email);
  });

  it('lets an owner make an unrestricted key that refunds, its use audited under the key and the owner', async () => {
    const { owner, paymentId } = await team();
    const made = await makeKey(owner, { kind: 'unrestricted' });
    expect(made.res.status).toBe(200);
    expect(made.key).toMatch(/^sk_test_/);
    const api = apiClient(server.url, { apiKey: made.key! });
    const before = await server.auditEntries(owner.merchantId);
    const refund = await api.post('/Thai/v1/refunds', { payment_id: paymentId, amount: 10_000 });
    expect(refund.status, refund.text).toBe(200);
    const [entry] = newEntries(before, await server.auditEntries(owner.merchantId));
    expect(entry).toMatchObject({
      action: 'refund_created',
      subjectId: refund.body.refund_id,
      context: { actor: { kind: 'api_key', last4: made.key!.slice(-4), madeBy: { userId: owner.userId, email: owner.email } }, channel: 'api' },
    });
  });
});
