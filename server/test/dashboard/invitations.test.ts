import { describe, expect, it } from 'vitest';
import { inviteAsOperator } from '../../src/app/invitations.js';
import { dashboardClient, dashboardMember, decodeHtml, signIn, totpCode, type DashboardClient } from '../support/dashboard.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-24T05:00:00Z'));

const { server } = usingTestServer({ clock });

const services = () => server.running.runtime.services;
const secretOn = (html: string) => /id="totp-secret">([A-Z2-7 ]+)</.exec(html)![1]!.replace(/ /g, '');
const errorOn = (html: string) => decodeHtml(/id="form-error" role="alert">([^<]*)</.exec(html)?.[1] ?? '');

async function invited(email: string, role: 'owner' | 'viewer' = 'owner', merchantId?: string) {
  const merchant = merchantId ?? (await server.merchant({ name: 'ร้านขนม' })).id;
  const { token, invitation } = await inviteAsOperator(services(), merchant, email, role);
  return { path: `/dashboard/invitations/${token}`, merchantId: merchant, invitation };
}

async function choosePassword(client: DashboardClient, path: string, password: string, repeat = password) {
  await client.get(path);
  return client.post(`${path}/password`, { password, password_repeat: repeat });
}

describe('accepting an invitation', () => {
  it('takes a password of the policy, enrols TOTP confirmed by a code, shows 10 recovery codes once, and signs the user in', async () => {
    const email = 'new.owner@example.com';
    const { path, merchantId, invitation } = await invited(email);
    const browser = dashboardClient(server.url);
    const first = await browser.get(`${path}?lang=en`);
    expect(first.status).toBe(200);
    expect(decodeHtml(first.text)).toContain('You are invited to ร้านขนม as Owner, with the e-mail new.owner@example.com.');

    for (const [password, repeat, problem] of [
      ['short pass', 'short pass', 'A password needs at least 12 characters.'],
      [email, email, 'The password must not be your e-mail address.'],
      ['qwerty123456', 'qwerty123456', 'That password is on a list of common passwords: choose another.'],
      ['a long enough passphrase', 'a different passphrase', 'The two passwords differ.'],
    ]) {
      const refused = await choosePassword(browser, path, password!, repeat);
      expect(refused.status).toBe(422);
      expect(errorOn(refused.text)).toBe(problem);
    }
    const chosen = await choosePassword(browser, path, 'a long enough passphrase');
    expect(chosen.status).toBe(303);
    const enrol = await browser.get(chosen.location!);
    expect(enrol.text).toContain('<svg'); // the QR code, inline
    const secret = secretOn(enrol.text);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    const wrong = await browser.post(`${path}/second-factor`, { code: '000000' });
    expect(wrong.status).toBe(422);
    expect(errorOn(wrong.text)).toBe('That code does not match: enter the 6 digits your app shows now.');
    expect(secretOn(wrong.text)).toBe(secret); // the same secret, to try again

    const done = await browser.post(`${path}/second-factor`, { code: totpCode(secret, clock.now()) });
    expect(done.status).toBe(200);
    const codes = [...done.text.matchAll(/<li><code>([a-z2-9-]+)<\/code><\/li>/g)].map((match) => match[1]);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(codes[0]).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(browser.jar.get('dash_session')).toBeDefined();
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain(email);

    // Used: the link is dead, and nothing about it is told apart from an unknown link.
    const again = await dashboardClient(server.url).get(path);
    expect(again.status).toBe(404);
    const main = (html: string) => html.slice(html.indexOf('<main'));
    expect(main((await dashboardClient(server.url).get('/dashboard/invitations/unknown-token-of-fair-length')).text)).toBe(main(again.text));

    const stored = await services().uow.repos.users.findByEmail(email);
    expect(stored!.credentials.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/); // PASSWORD_HASH_COST=10, as the test servers set it
    expect(JSON.stringify(stored)).not.toContain('a long enough passphrase');
    const entries = (await services().uow.repos.audit.list(merchantId, {}, { limit: 10, offset: 0 })).items.map((entry) => [entry.action, entry.subjectId]);
    expect(entries).toEqual(
      expect.arrayContaining([
        ['invitation_created', invitation.id],
        ['invitation_accepted', invitation.id],
      ]),
    );
    // And the user signs in with what they chose.
    const signedIn = await signIn(server.url, { email, password: 'a long enough passphrase', code: codes[0]! });
    expect(signedIn.response.status).toBe(303);
  });

  it('stops working after 72 hours', async () => {
    const { path } = await invited('late@example.com');
    clock.advance(72 * 3_600_000 - 1_000);
    expect((await dashboardClient(server.url).get(path)).status).toBe(200);
    clock.advance(1_000);
    const late = await dashboardClient(server.url).get(path);
    expect(late.status).toBe(404);
    expect(late.text).toContain('ลิงก์คำเชิญใช้ไม่ได้');
    expect((await choosePassword(dashboardClient(server.url), path, 'a long enough passphrase')).status).toBe(404);
  });

  it('lets a user of one merchant join another once signed in as the invited e-mail, and switch between them', async () => {
    const member = await dashboardMember(server, { role: 'owner', merchantName: 'ร้านแรก' });
    const { path, merchantId } = await invited(member.email, 'viewer');
    const visitor = await dashboardClient(server.url).get(path);
    expect(decodeHtml(visitor.text)).toContain(`/dashboard/login?next=${encodeURIComponent(path)}`);
    expect(visitor.text).not.toContain('name="password"'); // no second account for the same e-mail
    const other = await dashboardMember(server, { role: 'owner' });
    expect((await other.client.post(`${path}/accept`)).status).toBe(422); // signed in as someone else
    const accepted = await member.client.post(`${path}/accept`);
    expect(accepted.status).toBe(303);
    const home = await member.client.get('/dashboard');
    expect(home.text).toContain('ร้านขนม');
    expect(home.text).toContain('id="merchant-switch"');
    expect(home.text).not.toContain('>ทีม</a>'); // a viewer here
    expect((await member.client.post('/dashboard/merchant', { merchant_id: member.merchantId })).status).toBe(303);
    const back = await member.client.get('/dashboard');
    expect(back.text).toContain('ร้านแรก');
    expect(back.text).toContain('>ทีม</a>'); // the owner there
    expect((await member.client.post('/dashboard/merchant', { merchant_id: other.merchantId })).status).toBe(403);
    const memberships = (await services().uow.repos.memberships.listOfUser(member.userId)).map((m) => [m.merchantId, m.role]);
    expect(memberships.sort()).toEqual(
      [
        [member.merchantId, 'owner'],
        [merchantId, 'viewer'],
      ].sort(),
    );
  });
});

describe('the Account page', () => {
  it('moves the second factor to a new app: the password and a code of the new secret confirm it; old codes stop', async () => {
    const member = await dashboardMember(server, { role: 'support' });
    const page = await member.client.get('/dashboard/account/second-factor');
    const secret = secretOn(page.text);
    expect(secret).not.toBe(member.totpSecret);
    clock.advance(30_000);
    const wrongPassword = await member.client.post('/dashboard/account/second-factor', { secret, password: 'nope', code: totpCode(secret, clock.now()) });
    expect(wrongPassword.status).toBe(422);
    const changed = await member.client.post('/dashboard/account/second-factor', { secret, password: member.password, code: totpCode(secret, clock.now()) });
    expect(changed.status).toBe(200);
    clock.advance(30_000);
    expect((await signIn(server.url, { email: member.email, password: member.password, code: totpCode(member.totpSecret, clock.now()) })).response.status).toBe(
      401,
    );
    expect((await signIn(server.url, { email: member.email, password: member.password, code: totpCode(secret, clock.now()) })).response.status).toBe(303);
    const actions = (await services().uow.repos.audit.list(member.merchantId, {}, { limit: 20, offset: 0 })).items.map((entry) => entry.action);
    expect(actions).toContain('second_factor_changed');
  });

  it('makes new recovery codes: shown once, the old ones stop working', async () => {
    const member = await dashboardMember(server, { role: 'viewer' });
    const made = await member.client.post('/dashboard/account/recovery-codes', { password: member.password });
    expect(made.status).toBe(200);
    const codes = [...made.text.matchAll(/<li><code>([a-z2-9-]+)<\/code><\/li>/g)].map((match) => match[1]!);
    expect(codes).toHaveLength(10);
    expect((await member.client.get('/dashboard/account')).text).not.toContain(codes[0]!);
    expect((await signIn(server.url, { email: member.email, password: member.password, code: member.recoveryCodes[0]! })).response.status).toBe(401);
    expect((await signIn(server.url, { email: member.email, password: member.password, code: codes[0]! })).response.status).toBe(303);
    expect((await member.client.post('/dashboard/account/recovery-codes', { password: 'wrong' })).status).toBe(422);
    const actions = (await services().uow.repos.audit.list(member.merchantId, {}, { limit: 20, offset: 0 })).items.map((entry) => entry.action);
    expect(actions.filter((action) => action === 'recovery_codes_regenerated')).toHaveLength(1); // the refused attempt is not one
  });
});
