import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium } from '../../src/adapters/documents/pdf-printer.js';
import { PHONE } from './phone.js';
import { sharedByFile } from './shared-by-file.js';

export { PHONE };

/** Screenshots land here (git-ignored) when SCREENSHOTS=1, for people to look at; tests never compare them, so a plain run takes none. */
export const SCREENSHOTS_DIR = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;

/**
 * Headless Chromium as the service prints with it, driven by playwright-core 1.57, whose protocol matches Chromium
 * 143, with the page's own security headers in force (the same-origin policy on).
 */
export const launchBrowser = (): Promise<Browser> => launchChromium({ without: ['--disable-web-security'] });

/** One browser for the whole file: a browser costs seconds to start on a 2-core machine. */
export const usingBrowser = (): Browser => sharedByFile('the browser', launchBrowser, (browser) => browser.close());

/** A phone-sized context (PHONE), as most customers open a checkout page. */
export const mobileContext = (browser: Browser, options: { locale?: string; javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> =>
  browser.newContext({ ...PHONE, locale: options.locale ?? 'th-TH', javaScriptEnabled: options.javaScriptEnabled ?? true });

/** Every URL the page asks for (documents, scripts, fonts, images, streams), and every console error or CSP refusal. */
export function recordTraffic(page: Page): { requests: string[]; errors: string[] } {
  const traffic = { requests: [] as string[], errors: [] as string[] };
  page.on('request', (request) => traffic.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') traffic.errors.push(message.text());
  });
  page.on('pageerror', (error) => traffic.errors.push(error.message));
  return traffic;
}

export type Traffic = ReturnType<typeof recordTraffic>;

/** A new page of `context` at `url`, its traffic recorded from the first request. */
export async function openPage(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const traffic = recordTraffic(page);
  const response = await page.goto(url);
  return { page, traffic, response };
}

/**
 * axe-core's violations on the page: every rule runs, but only violations are reported in full (`resultTypes`), so
 * axe does not gather and serialise each passing node (about a fifth of a browser test's CPU).
 */
export async function axeViolations(page: Page) {
  return (await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()).violations;
}

/**
 * What every dashboard page must be: nothing from another origin than `origin`, no script error or CSP refusal (but a
 * resource answered one of `refusedOnPurpose`, which Chrome logs), no sideways scroll, no serious axe finding.
 */
export async function expectSoundPage(page: Page, traffic: Traffic, what: string, options: { origin: string; refusedOnPurpose?: number[] }) {
  const origin = new URL(options.origin).origin;
  expect({ what, foreign: traffic.requests.filter((url) => new URL(url).origin !== origin) }).toEqual({ what, foreign: [] });
  const refused = (error: string) =>
    options.refusedOnPurpose?.some((status) => error.startsWith(`Failed to load resource: the server responded with a status of ${status}`));
  const errors = traffic.errors.filter((error) => !refused(error));
  expect({ what, errors }).toEqual({ what, errors: [] });
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect({ what, sideways: widths.scroll > widths.client }).toEqual({ what, sideways: false });
  const violations = await axeViolations(page);
  expect({ what, violations: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`) }).toEqual({
    what,
    violations: [],
  });
}

/** The README's pictures: written by the tests that take them only when UPDATE_DOCS_IMAGES=1, so a test run leaves git clean. */
export const DOCS_IMAGES_DIR = new URL('../../../docs/images/', import.meta.url).pathname;

export async function screenshot(page: Page, name: string, options: { docs?: boolean } = {}): Promise<void> {
  if (process.env.SCREENSHOTS === '1') {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
  }
  if (options.docs && process.env.UPDATE_DOCS_IMAGES === '1') await page.screenshot({ path: join(DOCS_IMAGES_DIR, `${name}.png`), fullPage: true });
}
