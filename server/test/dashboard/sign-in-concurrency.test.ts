import { describe, expect, it } from 'vitest';
import { dashboardClient, dashboardMember, nextCode, signIn, totpCode, type DashboardMember } from '../support/dashboard.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

/**
 * The lockout (5 failures per account within 15 minutes) holds however many attempts arrive at once: each attempt is
 * counted before it is judged, one at a time per account in the database, so the 6th and later are refused unjudged
 * (as is one arriving while another is being counted). What was judged shows in the audit log: every wrong password or
 * code judged for a member writes one `sign_in_failed` entry (an attempt refused unjudged writes none).
 */
const clock = manualClock(new Date('2026-11-27T03:00:00Z'));
const { server } = usingTestServer({ clock });

const MINUTE = 60_000;

/** How many wrong attempts at `step` were judged: the member's `sign_in_failed` entries. */
const judged = async (member: DashboardMember, step: 'password' | 'second_factor') =>
  (await server.auditEntries(member.merchantId)).filter((entry) => entry.action === 'sign_in_failed' && entry.details.step === step).length;

// Each sign-in checks a password (scrypt): dozens at once take a while on a busy machine.
describe('the sign-in lockout under concurrency', { timeout: 180_000 }, () => {
  it('judges at most 5 of 40 wrong passwords sent at once, and refuses the right one after them', async () => {
    clock.advance(60 * MINUTE); // no failures of an earlier test counted against the address
    const member = await dashboardMember(server, { role: 'owner' });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(server.url, { email: member.email, password: `wrong password number ${i}`, code: '000000' })),
    );
    expect(answers.map(({ response }) => response.status)).toEqual(Array(40).fill(401));
    const wrongJudged = await judged(member, 'password');
    expect(wrongJudged).toBeGreaterThanOrEqual(1);
    expect(wrongJudged).toBeLessThanOrEqual(5);
    // Wrong ones after them until the lock (5 judged in all), then the right one.
    for (let i = wrongJudged; i < 5; i++) await signIn(server.url, { email: member.email, password: `one more wrong ${i}!`, code: '000000' });
    expect(await judged(member, 'password')).toBe(5);

    const right = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    expect(right.response.status).toBe(401);
    expect(right.client.jar.has('dash_session')).toBe(false);
    expect(await judged(member, 'password')).toBe(5); // refused unjudged
  });

  it('judges at most 5 of 100 second-factor codes sent at once on one half session, and then not the right code', async () => {
    clock.advance(60 * MINUTE);
    const member = await dashboardMember(server, { role: 'owner' });
    const browser = dashboardClient(server.url);
    await browser.get('/dashboard/login');
    const first = await browser.post('/dashboard/login', { email: member.email, password: member.password });
    expect(first.status).toBe(303);
    await browser.get(first.location!);
    const csrf = browser.csrfToken!;
    // Codes that are wrong now: none the member's app shows within the step's tolerance.
    const valid = new Set([-1, 0, 1].map((steps) => totpCode(member.totpSecret, new Date(clock.now().getTime() + steps * 30_000))));
    const guesses = Array.from({ length: 100 }, (_, i) => String(100_000 + i * 7919).padStart(6, '0')).filter((code) => !valid.has(code));
    const answers = await Promise.all(guesses.map((code) => browser.post('/dashboard/login/code', { code }, { csrf })));
    expect(answers.every((answer) => answer.status === 401 || answer.status === 303)).toBe(true);
    expect(answers.filter((answer) => answer.status === 303 && answer.location === '/dashboard')).toEqual([]);
    const codesJudged = await judged(member, 'second_factor');
    expect(codesJudged).toBeGreaterThanOrEqual(1);
    expect(codesJudged).toBeLessThanOrEqual(5);
    expect(await judged(member, 'password')).toBe(0);
  });

  it('counts only the wrong attempts: the right password after 4 wrong ones signs in, and the count starts again', async () => {
    clock.advance(60 * MINUTE);
    const member = await dashboardMember(server, { role: 'admin' });
    for (let i = 0; i < 4; i++) await signIn(server.url, { email: member.email, password: `not it ${i} at all`, code: '000000' });
    const right = await signIn(server.url, { email: member.email, password: member.password, code: () => nextCode(clock, member) });
    expect(right.response.status).toBe(303); // the right password, the 5th attempt, is no failure: nor is its code
    expect(await judged(member, 'password')).toBe(4);
    // The sign-in started the count again: 5 more wrong ones are judged before the lock, sent one after another.
    for (let i = 0; i < 7; i++) await signIn(server.url, { email: member.email, password: `again wrong ${i}!`, code: '000000' });
    expect(await judged(member, 'password')).toBe(9);
  });
});
