import { describe, expect, it } from 'vitest';
import { purgeEndedSessions } from '../../src/app/dashboard-sessions.js';
import { dashboardClient, dashboardMember, signIn, nextCode } from '../support/dashboard.js';
import { manualClock, startTestServer, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-24T01:00:00Z'));

const { server } = usingTestServer({ clock });

const MINUTE = 60_000;

describe('dashboard sessions', () => {
  it('end after 30 minutes without a request, and not before', async () => {
    const member = await dashboardMember(server, { role: 'viewer' });
    clock.advance(29 * MINUTE);
    expect((await member.client.get('/dashboard')).status).toBe(200);
    clock.advance(29 * MINUTE); // counted from the last request, not from sign-in
    expect((await member.client.get('/dashboard/account')).status).toBe(200);
    clock.advance(30 * MINUTE);
    const ended = await member.client.get('/dashboard/account');
    expect(ended.status).toBe(303);
    expect(ended.location).toBe('/dashboard/login?next=%2Fdashboard%2Faccount');
    clock.advance(-30 * MINUTE); // the session was deleted, not only refused: going back in time does not revive it
    expect((await dashboardClient(server.url, { dash_session: member.sessionId }).get('/dashboard')).status).toBe(303);
  });

  it('end 12 hours after sign-in however busy they are', async () => {
    const member = await dashboardMember(server, { role: 'owner' });
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      clock.advance(20 * MINUTE);
      expect((await member.client.get('/dashboard')).status).toBe(200);
    }
    clock.advance(20 * MINUTE); // 12 h in total
    expect((await member.client.get('/dashboard')).status).toBe(303);
  });

  it("a password change ends the user's other sessions, keeps this one, and the new password is the one that works", async () => {
    const member = await dashboardMember(server, { role: 'support' });
    const other = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    expect((await other.client.get('/dashboard')).status).toBe(200);
    const someoneElse = await dashboardMember(server, { role: 'support', merchantId: member.merchantId });

    const tooShort = await member.client.post('/dashboard/account/password', { current_password: member.password, new_password: 'short' });
    expect(tooShort.status).toBe(422);
    expect(tooShort.text).toContain('รหัสผ่านต้องมีอย่างน้อย 12 ตัวอักษร');
    const wrongCurrent = await member.client.post('/dashboard/account/password', {
      current_password: 'not my password',
      new_password: 'a brand new passphrase',
    });
    expect(wrongCurrent.status).toBe(422);
    expect((await other.client.get('/dashboard')).status).toBe(200); // refused changes end nothing

    const changed = await member.client.post('/dashboard/account/password?lang=en', {
      current_password: member.password,
      new_password: 'a brand new passphrase',
    });
    expect(changed.status, changed.text.slice(changed.text.indexOf('<main'), changed.text.indexOf('<main') + 600)).toBe(200);
    expect(changed.text).toContain('Password changed; 1 other sessions were signed out.');
    expect((await other.client.get('/dashboard')).status).toBe(303);
    expect((await member.client.get('/dashboard')).status).toBe(200);
    expect((await someoneElse.client.get('/dashboard')).status).toBe(200); // another user's sessions are theirs

    expect((await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) })).response.status).toBe(401);
    expect((await signIn(server.url, { email: member.email, password: 'a brand new passphrase', code: () => nextCode(clock, member) })).response.status).toBe(
      303,
    );
    const audit = await server.running.runtime.services.uow.repos.audit.list(member.merchantId, {}, { limit: 50, offset: 0 });
    expect(audit.items.filter((entry) => entry.action === 'password_changed').map((entry) => [entry.subjectId, entry.details])).toEqual([
      [member.userId, { ended_sessions: 1 }],
    ]);
  });

  it('"sign out everywhere else" ends the other sessions and lists what is open', async () => {
    const member = await dashboardMember(server, { role: 'developer' });
    const other = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    const account = await member.client.get('/dashboard/account?lang=en');
    const listed = /<ul class="sessions" id="sessions">([\s\S]*?)<\/ul>/.exec(account.text)![1]!;
    expect(listed.match(/<li>/g)?.length).toBe(2);
    expect(account.text).toContain('This session');
    const ended = await member.client.post('/dashboard/account/sessions/sign-out-others');
    expect(ended.text).toContain('1 other sessions signed out.'); // English: asked for above, remembered
    expect((await other.client.get('/dashboard')).status).toBe(303);
    expect((await member.client.get('/dashboard')).status).toBe(200);
  });

  it('that ended are deleted by the sweeper, with failed sign-ins too old to count', async () => {
    const s = server.running.runtime.services;
    const idle = await dashboardMember(server, { role: 'viewer' });
    const idleHash = s.accounts.tokens.hash(idle.sessionId);
    await signIn(server.url, { email: idle.email, password: 'wrong password here', code: '' });
    clock.advance(20 * MINUTE);
    const active = await dashboardMember(server, { role: 'viewer' });
    clock.advance(15 * MINUTE); // idle's session: 35 minutes without a request; active's: 15
    const purged = await purgeEndedSessions(s);
    expect(purged.sessions).toBeGreaterThanOrEqual(1);
    expect(purged.failures).toBeGreaterThanOrEqual(1);
    expect(await s.uow.repos.sessions.findByIdHash(idleHash)).toBeNull();
    expect(await s.uow.repos.sessions.findByIdHash(s.accounts.tokens.hash(active.sessionId))).not.toBeNull();
    expect(await s.uow.repos.signInFailures.ofEmail(idle.email, new Date(0))).toEqual([]);
  });

  it('are __Host- cookies, Secure, when PUBLIC_BASE_URL is https, and forms must come from that origin', async () => {
    const origin = 'https://pay.example.test';
    const https = await startTestServer({ clock, env: { PUBLIC_BASE_URL: origin } });
    try {
      const member = await dashboardMember(https, { role: 'owner' });
      const browser = dashboardClient(https.url);
      const login = await browser.get('/dashboard/login');
      const csrfCookie = login.headers.getSetCookie().find((line) => line.startsWith('__Host-dash_csrf='))!;
      expect(csrfCookie).toMatch(/; Secure/);
      expect(csrfCookie).toMatch(/HttpOnly/);
      expect(csrfCookie).toMatch(/Path=\//);
      expect(csrfCookie).not.toMatch(/Domain=/);
      // The service's own origin is PUBLIC_BASE_URL's, not the address the request reached.
      expect((await browser.post('/dashboard/login', { email: member.email, password: member.password })).status).toBe(403);
      const first = await browser.post('/dashboard/login', { email: member.email, password: member.password }, { origin });
      expect(first.status).toBe(303);
      await browser.get(first.location!);
      const second = await browser.post('/dashboard/login/code', { code: nextCode(clock, member) }, { origin });
      expect(second.status).toBe(303);
      expect(second.headers.getSetCookie().find((line) => line.startsWith('__Host-dash_session='))).toMatch(/; Secure/);
      expect((await browser.get('/dashboard')).status).toBe(200);
    } finally {
      await https.stop();
    }
  });
});
