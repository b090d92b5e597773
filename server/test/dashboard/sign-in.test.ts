import { describe, expect, it } from 'vitest';
import { dashboardClient, dashboardMember, signIn, nextCode } from '../support/dashboard.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-24T03:00:00Z'));

const { server } = usingTestServer({ clock });

const MINUTE = 60_000;
const auditOf = async (merchantId: string) =>
  (await server.running.runtime.services.uow.repos.audit.list(merchantId, {}, { limit: 100, offset: 0 })).items.map((entry) => ({
    action: entry.action,
    details: entry.details,
  }));

describe('signing in to the dashboard', () => {
  it('takes the e-mail and password, then a TOTP code, and lands on Home with a session cookie (HttpOnly, SameSite=Lax)', async () => {
    const member = await dashboardMember(server, { role: 'support' });
    const { client, response } = await signIn(server.url, {
      email: member.email.toUpperCase(),
      password: member.password,
      code: () => nextCode(clock, member),
    });
    expect(response.status).toBe(303);
    expect(response.location).toBe('/dashboard');
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('dash_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // http: no __Host- prefix either
    expect(client.jar.get('dash_session')).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    const home = await client.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain(member.email);
    expect(await auditOf(member.merchantId)).toContainEqual({ action: 'sign_in', details: { method: 'totp' } });
  });

  it('says the same thing for an unknown e-mail, a wrong password and a wrong code, and opens no session', async () => {
    const member = await dashboardMember(server, { role: 'viewer' });
    const attempts = [
      { email: 'nobody@example.com', password: member.password, code: '000000' },
      { email: member.email, password: 'not the password at all', code: '000000' },
      { email: member.email, password: member.password, code: '000000' },
      { email: member.email, password: member.password, code: 'aaaaa-bbbbb-ccccc' },
    ];
    for (const attempt of attempts) {
      const { client, response } = await signIn(server.url, attempt);
      expect(response.status).toBe(401);
      expect(response.text).toContain('เข้าสู่ระบบไม่สำเร็จ: ตรวจสอบอีเมล รหัสผ่าน และรหัสยืนยัน หรือรอ 15 นาทีแล้วลองใหม่');
      expect(client.jar.has('dash_session')).toBe(false);
    }
    await server.running.runtime.services.uow.repos.signInFailures.clearEmail(member.email);
    const failures = (await auditOf(member.merchantId)).filter((entry) => entry.action === 'sign_in_failed');
    expect(failures.map((entry) => entry.details.step).sort()).toEqual(['password', 'second_factor', 'second_factor']); // an unknown e-mail is no member's
  });

  it('locks an account for 15 minutes after 5 wrong passwords within 15 minutes: even the right one fails, with the same words', async () => {
    const member = await dashboardMember(server, { role: 'owner' });
    for (let i = 0; i < 5; i++) {
      clock.advance(MINUTE);
      const { response } = await signIn(server.url, { email: member.email, password: `wrong password ${i}!`, code: '000000' });
      expect(response.status).toBe(401);
    }
    const locked = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    expect(locked.response.status).toBe(401);
    const lockedText = locked.response.text;
    clock.advance(14 * MINUTE);
    expect((await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) })).response.status).toBe(401);
    clock.advance(MINUTE); // 15 minutes after the fifth failure
    const after = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    expect(after.response.status).toBe(303);
    // The locked answer and a wrong password's answer read alike (no telling a lock from a typo).
    const wrong = await signIn(server.url, { email: 'someone.else@example.com', password: 'x'.repeat(12), code: '000000' });
    expect(lockedText.replace(/value="[^"]*"/g, '')).toBe(wrong.response.text.replace(/value="[^"]*"/g, ''));
  });

  it('counts failed second factors too: 5 wrong codes lock the account', async () => {
    const member = await dashboardMember(server, { role: 'owner' });
    for (let i = 0; i < 5; i++) {
      clock.advance(MINUTE);
      expect((await signIn(server.url, { email: member.email, password: member.password, code: '123456' })).response.status).toBe(401);
    }
    expect((await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) })).response.status).toBe(401);
  });

  it('limits failures per client address across accounts (20 within 15 minutes)', { timeout: 120_000 }, async () => {
    const member = await dashboardMember(server, { role: 'owner' });
    for (let i = 0; i < 20; i++) {
      const { response } = await signIn(server.url, { email: `guess${i}@example.com`, password: 'guessing password', code: '000000' });
      expect(response.status).toBe(401);
    }
    expect((await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) })).response.status).toBe(401);
    clock.advance(15 * MINUTE);
    expect((await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) })).response.status).toBe(303);
  });

  it('takes a recovery code once: used again it fails', async () => {
    const member = await dashboardMember(server, { role: 'admin' });
    const code = member.recoveryCodes[3]!;
    const first = await signIn(server.url, { email: member.email, password: member.password, code: code.toUpperCase().replace(/-/g, ' ') });
    expect(first.response.status).toBe(303);
    expect(await auditOf(member.merchantId)).toContainEqual({ action: 'sign_in', details: { method: 'recovery_code', recovery_codes_left: 9 } });
    const again = await signIn(server.url, { email: member.email, password: member.password, code });
    expect(again.response.status).toBe(401);
    expect(again.response.text).toContain('เข้าสู่ระบบไม่สำเร็จ');
    expect((await signIn(server.url, { email: member.email, password: member.password, code: member.recoveryCodes[4]! })).response.status).toBe(303);
  });

  it('takes a TOTP code once: the same code again fails', async () => {
    const member = await dashboardMember(server, { role: 'admin' });
    const code = nextCode(clock, member);
    expect((await signIn(server.url, { email: member.email, password: member.password, code })).response.status).toBe(303);
    expect((await signIn(server.url, { email: member.email, password: member.password, code })).response.status).toBe(401);
  });

  it('lets the half session (password only) see nothing, and drops it after 5 minutes', async () => {
    const member = await dashboardMember(server, { role: 'owner' });
    const { client, response } = await signIn(server.url, { email: member.email, password: member.password, code: '' });
    expect(response.status).toBe(401); // an empty code: the code page again
    expect(response.text).toContain('name="code"');
    expect((await client.get('/dashboard')).status).toBe(303);
    clock.advance(5 * MINUTE);
    const code = await client.get('/dashboard/login/code');
    expect(code.status).toBe(303);
    expect(code.location).toBe('/dashboard/login');
    expect((await client.post('/dashboard/login/code', { code: nextCode(clock, member) })).status).toBe(401);
  });

  it('sends the member back where they were going, and never to another site', async () => {
    const member = await dashboardMember(server, { role: 'owner' });
    const visitor = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    expect(visitor.response.location).toBe('/dashboard');
    for (const [next, landing] of [
      ['/dashboard/team', '/dashboard/team'],
      ['https://evil.example/dashboard', '/dashboard'],
      ['//evil.example', '/dashboard'],
    ] as const) {
      const browser = dashboardClient(server.url);
      await browser.get(`/dashboard/login?next=${encodeURIComponent(next)}`);
      const first = await browser.post('/dashboard/login', { email: member.email, password: member.password, next });
      await browser.get(first.location!);
      const second = await browser.post('/dashboard/login/code', { code: nextCode(clock, member), next });
      expect(second.location).toBe(landing);
    }
  });

  it('signs out: the session ends and the cookie goes', async () => {
    const member = await dashboardMember(server, { role: 'viewer' });
    const out = await member.client.post('/dashboard/logout');
    expect(out.status).toBe(303);
    expect(out.location).toBe('/dashboard/login?signed_out=1');
    expect(member.client.jar.has('dash_session')).toBe(false);
    const stolen = dashboardClient(server.url, { dash_session: member.sessionId });
    expect((await stolen.get('/dashboard')).status).toBe(303);
    expect(await auditOf(member.merchantId)).toContainEqual({ action: 'sign_out', details: { sessions: 'this' } });
  });
});
