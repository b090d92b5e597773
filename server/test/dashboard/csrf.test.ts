import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardClient, dashboardMember, type DashboardMember } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

let owner: DashboardMember;
let colleague: DashboardMember;

const { server } = usingTestServer();
beforeAll(async () => {
  owner = await dashboardMember(server, { role: 'owner' });
  colleague = await dashboardMember(server, { role: 'admin', merchantId: owner.merchantId });
});

const openInvitations = async () => (await server.running.runtime.services.uow.repos.invitations.listOpen(owner.merchantId, new Date())).length;
const invite = { email: 'csrf.target@example.com', role: 'viewer' };

describe("every dashboard POST needs the session's CSRF token and the service's Origin", () => {
  it("answers 403 and changes nothing without the token, with another session's, with the pre-session one, or from another origin", async () => {
    const before = await openInvitations();
    const refused = [
      await owner.client.post('/dashboard/team/invitations', invite, { csrf: null }),
      await owner.client.post('/dashboard/team/invitations', invite, { csrf: colleague.csrfToken }),
      await owner.client.post('/dashboard/team/invitations', invite, { csrf: 'x'.repeat(43) }),
      await owner.client.post('/dashboard/team/invitations', invite, { origin: 'https://evil.example' }),
      await owner.client.post('/dashboard/team/invitations', invite, { origin: server.url.replace('127.0.0.1', 'localhost') }),
      await owner.client.post('/dashboard/team/invitations', invite, { origin: null }),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(refused[0]!.text).toContain('แบบฟอร์มหมดอายุ');
    expect(await openInvitations()).toBe(before);

    // A signed-in form is checked against its session, not against the cookie used before sign-in.
    const preSession = dashboardClient(server.url, { dash_session: owner.sessionId, dash_csrf: 'p'.repeat(43) });
    expect((await preSession.post('/dashboard/team/invitations', invite, { csrf: 'p'.repeat(43) })).status).toBe(403);
    expect(await openInvitations()).toBe(before);

    const allowed = await owner.client.post('/dashboard/team/invitations', invite);
    expect(allowed.status).toBe(200);
    expect(await openInvitations()).toBe(before + 1);
  });

  it('guards a password change the same way: refused, the old password still works', async () => {
    const member = await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId });
    const change = { current_password: member.password, new_password: 'an attacker chose this one' };
    expect((await member.client.post('/dashboard/account/password', change, { csrf: owner.csrfToken })).status).toBe(403);
    expect((await member.client.post('/dashboard/account/password', change, { origin: 'https://evil.example' })).status).toBe(403);
    const found = await server.running.runtime.services.uow.repos.users.findById(member.userId);
    expect(await server.running.runtime.services.accounts.passwords.verify(member.password, found!.credentials.passwordHash)).toBe(true);
  });

  it('guards the forms before sign-in with a token bound to a cookie of their own', async () => {
    const visitor = dashboardClient(server.url);
    await visitor.get('/dashboard/login');
    expect(visitor.jar.get('dash_csrf')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const credentials = { email: owner.email, password: owner.password };
    expect((await visitor.post('/dashboard/login', credentials, { csrf: null })).status).toBe(403);
    expect((await visitor.post('/dashboard/login', credentials, { csrf: 'y'.repeat(43) })).status).toBe(403);
    expect((await visitor.post('/dashboard/login', credentials, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await dashboardClient(server.url).post('/dashboard/login', credentials, { csrf: 'z'.repeat(43) })).status).toBe(403); // no cookie
    expect((await visitor.post('/dashboard/login', credentials)).status).toBe(303);
  });

  it('never changes anything on a GET', async () => {
    const before = await openInvitations();
    expect((await owner.client.get('/dashboard/team/invitations?email=get@example.com&role=viewer')).status).toBe(404);
    expect((await owner.client.get('/dashboard/logout')).status).toBe(404);
    expect((await owner.client.get('/dashboard')).status).toBe(200); // still signed in
    expect(await openInvitations()).toBe(before);
  });
});
