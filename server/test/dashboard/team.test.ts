import { describe, expect, it } from 'vitest';
import { roleMay, roles, type Role } from '../../src/domain/permissions.js';
import { dashboardMember, decodeHtml, type DashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer();

const repos = () => server.running.runtime.services.uow.repos;
const team = async (merchantId: string) =>
  Object.fromEntries((await repos().memberships.listOfMerchant(merchantId)).map((member) => [member.email, member.role] as [string, Role]));
const invitations = async (merchantId: string) => (await repos().invitations.listOpen(merchantId, new Date())).map((invitation) => invitation.email);
const audit = async (merchantId: string) =>
  (await repos().audit.list(merchantId, {}, { limit: 100, offset: 0 })).items.map((entry) => ({
    action: entry.action,
    subject: entry.subjectId,
    details: entry.details,
  }));

/** A merchant with one member of each role, and a member to act on. */
async function merchantWithEveryRole() {
  const owner = await dashboardMember(server, { role: 'owner' });
  const members: Record<Role, DashboardMember> = { owner } as Record<Role, DashboardMember>;
  for (const role of ['admin', 'developer', 'support', 'viewer'] as const)
    members[role] = await dashboardMember(server, { role, merchantId: owner.merchantId });
  return { merchantId: owner.merchantId, members };
}

describe('the Team page', () => {
  it('lets owners and admins invite, change roles and remove; the others get 403 and change nothing', async () => {
    for (const actor of ['owner', 'admin', 'developer', 'support', 'viewer'] as const) {
      const { merchantId, members } = await merchantWithEveryRole();
      const target = await dashboardMember(server, { role: 'support', merchantId });
      const allowed = actor === 'owner' || actor === 'admin';
      const client = members[actor].client;
      const before = { team: await team(merchantId), invitations: await invitations(merchantId) };

      const page = await client.get('/dashboard/team');
      const invited = await client.post('/dashboard/team/invitations', { email: `new.${actor}@example.com`, role: 'viewer' });
      const changed = await client.post(`/dashboard/team/members/${target.userId}/role`, { role: 'viewer' });
      const removed = await client.post(`/dashboard/team/members/${target.userId}/remove`);
      expect({ actor, statuses: [page.status, invited.status, changed.status, removed.status] }).toEqual({
        actor,
        statuses: allowed ? [200, 200, 200, 200] : [403, 403, 403, 403],
      });
      if (allowed) {
        expect(decodeHtml(invited.text)).toMatch(new RegExp(`${server.url}/dashboard/invitations/[A-Za-z0-9_-]{43}`));
        expect(await invitations(merchantId)).toEqual([`new.${actor}@example.com`]);
        expect((await team(merchantId))[target.email]).toBeUndefined();
        expect((await target.client.get('/dashboard')).status).toBe(403); // a member of no merchant any more
        const actions = (await audit(merchantId)).filter((entry) => ['invitation_created', 'role_changed', 'member_removed'].includes(entry.action));
        expect(actions).toEqual(
          expect.arrayContaining([
            { action: 'invitation_created', subject: expect.stringMatching(/^inv_/), details: { email: `new.${actor}@example.com`, role: 'viewer' } },
            { action: 'role_changed', subject: target.userId, details: { email: target.email, from: 'support', to: 'viewer' } },
            { action: 'member_removed', subject: target.userId, details: { email: target.email, role: 'viewer' } },
          ]),
        );
      } else {
        expect(await team(merchantId)).toEqual({ ...before.team, [target.email]: 'support' });
        expect(await invitations(merchantId)).toEqual(before.invitations);
      }
    }
  });

  it('keeps owners to owners: an admin may not invite, promote to, demote or remove an owner', async () => {
    const { merchantId, members } = await merchantWithEveryRole();
    const admin = members.admin.client;
    const before = await team(merchantId);
    const refused = [
      await admin.post('/dashboard/team/invitations', { email: 'would.be.owner@example.com', role: 'owner' }),
      await admin.post(`/dashboard/team/members/${members.viewer.userId}/role`, { role: 'owner' }),
      await admin.post(`/dashboard/team/members/${members.owner.userId}/role`, { role: 'viewer' }),
      await admin.post(`/dashboard/team/members/${members.owner.userId}/remove`),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 403, 403, 403]);
    expect(refused[0]!.text).toContain('เฉพาะเจ้าของเท่านั้นที่เชิญ เปลี่ยน หรือนำเจ้าของออกได้');
    expect(await team(merchantId)).toEqual(before);
    expect(await invitations(merchantId)).toEqual([]);
    // The page offers an admin no owner role, and no buttons on an owner.
    const page = (await admin.get('/dashboard/team')).text;
    expect(page).not.toContain('<option value="owner"');
    expect(page).not.toContain(`/dashboard/team/members/${members.owner.userId}/role`);

    expect((await members.owner.client.post(`/dashboard/team/members/${members.admin.userId}/role`, { role: 'owner' })).status).toBe(200);
    expect((await team(merchantId))[members.admin.email]).toBe('owner');
  });

  it('keeps at least one owner: the page offers the only owner no remove nor role change, and the server refuses them', async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    const alone = decodeHtml((await owner.client.get('/dashboard/team?lang=en')).text);
    expect(alone).not.toContain(`/dashboard/team/members/${owner.userId}/remove`);
    expect(alone).not.toContain(`/dashboard/team/members/${owner.userId}/role`);
    expect(alone).toContain('The merchant’s only owner');
    const demoted = await owner.client.post(`/dashboard/team/members/${owner.userId}/role?lang=en`, { role: 'admin' });
    expect(demoted.status).toBe(422);
    expect(demoted.text).toContain('A merchant keeps at least one owner.');
    expect((await owner.client.post(`/dashboard/team/members/${owner.userId}/remove`)).status).toBe(422);
    expect(await team(owner.merchantId)).toEqual({ [owner.email]: 'owner' });

    const second = await dashboardMember(server, { role: 'owner', merchantId: owner.merchantId });
    const twoOwners = decodeHtml((await owner.client.get('/dashboard/team?lang=en')).text);
    for (const member of [owner, second]) expect(twoOwners).toContain(`/dashboard/team/members/${member.userId}/remove`);
    expect((await owner.client.post(`/dashboard/team/members/${second.userId}/remove`)).status).toBe(200);
    expect((await owner.client.post(`/dashboard/team/members/${owner.userId}/remove`)).status).toBe(422);
  });

  it('says what each role may do, from the permission table', async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    const page = (await owner.client.get('/dashboard/team?lang=en')).text;
    const explained = (role: Role) => new RegExp(`data-role="${role}"><dt>[^<]+</dt><dd><ul>(.*?)</ul>`).exec(page)?.[1] ?? '';
    for (const role of roles) {
      expect(explained(role).includes('see payments'), role).toBe(roleMay(role, 'payments:read'));
      expect(explained(role).includes('refund customers'), role).toBe(roleMay(role, 'refunds:write'));
      expect(explained(role).includes('read the audit log'), role).toBe(roleMay(role, 'audit:read'));
      expect(explained(role).includes('create and revoke API keys'), role).toBe(roleMay(role, 'api_keys:write'));
    }
    expect((await owner.client.get('/dashboard/team?lang=th')).text).toContain('<li>คืนเงินให้ลูกค้า</li>');
  });

  it('lets only one of two owners removing each other at the same moment succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const first = await dashboardMember(server, { role: 'owner' });
      const second = await dashboardMember(server, { role: 'owner', merchantId: first.merchantId });
      const [a, b] = await Promise.all([
        first.client.post(`/dashboard/team/members/${second.userId}/remove`),
        second.client.post(`/dashboard/team/members/${first.userId}/remove`),
      ]);
      // The loser is refused as the last owner (422), or, when it comes second, as no member any more (403).
      expect([a.status, b.status].filter((status) => status === 200)).toHaveLength(1);
      expect([a.status, b.status].every((status) => [200, 403, 422].includes(status))).toBe(true);
      expect(Object.values(await team(first.merchantId))).toEqual(['owner']);
    }
  });

  it("acts only on the merchant's own members: another merchant's user is no member here", async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    const stranger = await dashboardMember(server, { role: 'viewer' });
    expect((await owner.client.post(`/dashboard/team/members/${stranger.userId}/role`, { role: 'admin' })).status).toBe(422);
    expect((await owner.client.post(`/dashboard/team/members/${stranger.userId}/remove`)).status).toBe(422);
    expect(await team(stranger.merchantId)).toEqual({ [stranger.email]: 'viewer' });
  });

  it('refuses to invite a member twice, and withdraws an open invitation', async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    const viewer = await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId });
    expect((await owner.client.post('/dashboard/team/invitations', { email: viewer.email.toUpperCase(), role: 'admin' })).status).toBe(422);
    expect((await owner.client.post('/dashboard/team/invitations', { email: 'not an address', role: 'admin' })).status).toBe(422);
    expect((await owner.client.post('/dashboard/team/invitations', { email: 'ok@example.com', role: 'superuser' })).status).toBe(403);
    expect((await owner.client.post('/dashboard/team/invitations', { email: 'later@example.com', role: 'support' })).status).toBe(200);
    const [open] = await repos().invitations.listOpen(owner.merchantId, new Date());
    expect((await owner.client.post(`/dashboard/team/invitations/${open!.id}/revoke`)).status).toBe(200);
    expect(await invitations(owner.merchantId)).toEqual([]);
    expect((await audit(owner.merchantId)).map((entry) => entry.action)).toContain('invitation_revoked');
  });
});
