import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inviteAsOperator } from '../../src/app/invitations.js';
import { PHONE, screenshot, usingBrowser, openPage, expectSoundPage, type Traffic } from '../support/browser.js';
import { dashboardMember, totpCode } from '../support/dashboard.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer();
const browser = usingBrowser();

const phone = (locale = 'th-TH') => browser.newContext({ ...PHONE, locale });
const desktop = (locale = 'th-TH') => browser.newContext({ viewport: { width: 1280, height: 900 }, locale });

// A refused form is answered 401 or 422 on purpose, which Chrome logs; anything else (a CSP refusal, a script error) counts.
const checkPage = (page: Page, traffic: Traffic, what: string) => expectSoundPage(page, traffic, what, { origin: server.url, refusedOnPurpose: [401, 422] });

describe('dashboard accounts in a real browser', { timeout: 120_000 }, () => {
  it('accepts an invitation: a password, TOTP from the secret the page shows, the recovery codes, then Home (Thai, phone)', async () => {
    const merchant = await server.merchant({ name: 'ร้านกาแฟบ้านสวน' });
    const { token } = await inviteAsOperator(server.running.runtime.services, merchant.id, 'somchai@example.com', 'owner');
    const context = await phone();
    const { page, traffic } = await openPage(context, `${server.url}/dashboard/invitations/${token}`);
    expect(await page.getAttribute('html', 'lang')).toBe('th');
    expect(await page.locator('.intro').textContent()).toContain('ร้านกาแฟบ้านสวน');
    await checkPage(page, traffic, 'invitation: password');
    await screenshot(page, 'dashboard-invitation-th-mobile', { docs: true });

    await page.getByLabel('รหัสผ่านใหม่').fill('mango sticky rice at noon');
    await page.getByLabel('ยืนยันรหัสผ่าน').fill('mango sticky rice at noon');
    await page.getByRole('button', { name: 'ถัดไป' }).click();
    await page.locator('#totp-secret').waitFor();
    expect(await page.locator('.totp-qr svg').count()).toBe(1);
    await checkPage(page, traffic, 'invitation: second factor');
    await screenshot(page, 'dashboard-second-factor-th-mobile', { docs: true });

    const secret = (await page.locator('#totp-secret').textContent())!;
    await page.getByLabel('รหัส 6 หลักที่แอปแสดงตอนนี้').fill(totpCode(secret, new Date()));
    await page.getByRole('button', { name: 'ยืนยัน' }).click();
    await page.locator('#recovery-codes').waitFor();
    const codes = await page.locator('#recovery-codes li').allTextContents();
    expect(codes).toHaveLength(10);
    await checkPage(page, traffic, 'invitation: recovery codes');

    await page.locator('#continue').click();
    await page.waitForURL(`${server.url}/dashboard`);
    expect(await page.locator('#home-welcome').textContent()).toContain('ร้านกาแฟบ้านสวน');
    expect(await page.locator('#test-data').isVisible()).toBe(true);
    expect(await page.locator('#user-email').textContent()).toBe('somchai@example.com');
    await checkPage(page, traffic, 'home');
    await context.close();

    // Later, without the phone: the recovery code signs in once (English, desktop).
    const later = await desktop('en-US');
    const signIn = await openPage(later, `${server.url}/dashboard/login?lang=en`);
    await checkPage(signIn.page, signIn.traffic, 'login');
    await screenshot(signIn.page, 'dashboard-login-en-desktop', { docs: true });
    const useRecoveryCode = async (page: Page) => {
      await page.getByLabel('E-mail').fill('somchai@example.com');
      await page.getByLabel('Password').fill('mango sticky rice at noon');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('6-digit code from your authenticator app, or a recovery code').waitFor();
      await checkPage(page, signIn.traffic, 'login: second step');
      await page.getByLabel('6-digit code from your authenticator app, or a recovery code').fill(codes[0]!);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await useRecoveryCode(signIn.page);
    await signIn.page.waitForURL(`${server.url}/dashboard`);
    await checkPage(signIn.page, signIn.traffic, 'home after a recovery code');
    await signIn.page.getByRole('button', { name: 'Sign out' }).click();
    await signIn.page.waitForURL(/\/dashboard\/login\?signed_out=1$/);
    await useRecoveryCode(signIn.page);
    expect(await signIn.page.locator('#form-error').textContent()).toBe(
      'Sign-in failed: check the e-mail, password and code, or wait 15 minutes and try again.',
    );
    await later.close();
  });

  it('locks the account after 5 wrong passwords: the right one then fails too, with the same words (English, phone)', async () => {
    const member = await dashboardMember(server, { role: 'viewer', email: 'forgetful@example.com' });
    const context = await phone('en-US');
    const { page, traffic } = await openPage(context, `${server.url}/dashboard/login?lang=en`);
    const attempt = async (password: string) => {
      await page.getByLabel('E-mail').fill(member.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForLoadState();
    };
    for (let i = 1; i <= 5; i++) {
      await attempt(`wrong password number ${i}`);
      expect(await page.locator('#form-error').textContent()).toBe('Sign-in failed: check the e-mail, password and code, or wait 15 minutes and try again.');
    }
    await attempt(member.password);
    expect(page.url()).toBe(`${server.url}/dashboard/login`); // still the password form: no code asked
    expect(await page.locator('#form-error').textContent()).toBe('Sign-in failed: check the e-mail, password and code, or wait 15 minutes and try again.');
    await checkPage(page, traffic, 'login refused');
    await screenshot(page, 'dashboard-login-failed-en-mobile');
    await context.close();
  });

  it('shows the Team and Account pages to an owner in Thai and English, on a phone and a desktop', async () => {
    const owner = await dashboardMember(server, { role: 'owner', email: 'owner.team@example.com', merchantName: 'ร้านข้าวมันไก่' });
    await dashboardMember(server, { role: 'support', merchantId: owner.merchantId, email: 'support.staff@example.com' });
    await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId, email: 'accountant@example.com' });
    for (const [lang, locale] of [
      ['th', 'th-TH'],
      ['en', 'en-US'],
    ] as const) {
      for (const size of ['mobile', 'desktop'] as const) {
        const context = await owner.browserContext(browser, { desktop: size === 'desktop', locale });
        const team = await openPage(context, `${server.url}/dashboard/team?lang=${lang}`);
        expect(await team.page.getAttribute('html', 'lang')).toBe(lang);
        expect(await team.page.locator('#members li').count()).toBe(3);
        await checkPage(team.page, team.traffic, `team ${lang} ${size}`);
        await screenshot(team.page, `dashboard-team-${lang}-${size}`, { docs: true });
        const account = await openPage(context, `${server.url}/dashboard/account`); // the language is remembered
        expect(await account.page.getAttribute('html', 'lang')).toBe(lang);
        await checkPage(account.page, account.traffic, `account ${lang} ${size}`);
        await screenshot(account.page, `dashboard-account-${lang}-${size}`, { docs: true });
        await account.page.goto(`${server.url}/dashboard/account/second-factor`);
        await account.page.locator('#totp-secret').waitFor();
        await checkPage(account.page, account.traffic, `new second factor ${lang} ${size}`);
        await context.close();
      }
    }
  });

  it("answers a page the member's role may not open with a 403 page of the dashboard, and no menu entry for it", async () => {
    const viewer = await dashboardMember(server, { role: 'viewer' });
    const context = await viewer.browserContext(browser);
    const { page, traffic } = await openPage(context, `${server.url}/dashboard/team`);
    expect(await page.locator('main p').first().textContent()).toBe('บทบาทของคุณในร้านค้านี้ไม่มีสิทธิ์ทำรายการนี้');
    expect(await page.getByRole('navigation').getByRole('link', { name: 'ทีม' }).count()).toBe(0);
    await checkPage(page, { ...traffic, errors: traffic.errors.filter((error) => !error.includes('status of 403')) }, 'forbidden');
    await context.close();
  });

  it('asks before removing a member, in a dialog of the page, and removes once confirmed', async () => {
    const owner = await dashboardMember(server, { role: 'owner' });
    const leaving = await dashboardMember(server, { role: 'viewer', merchantId: owner.merchantId, email: 'leaving@example.com' });
    const context = await owner.browserContext(browser, { desktop: true, locale: 'en-US' });
    const { page, traffic } = await openPage(context, `${server.url}/dashboard/team?lang=en`);
    const row = page.locator(`[data-user-id="${leaving.userId}"]`);
    await row.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('Remove leaving@example.com from this merchant?');
    await checkPage(page, traffic, 'confirmation dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.locator('#notice').waitFor();
    expect(await page.locator(`[data-user-id="${leaving.userId}"]`).count()).toBe(0);
    await context.close();
  });
});
