import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { sharedByFile } from './shared-by-file.js';

/** Screenshots land here (git-ignored), for people to look at; tests never compare them. */
export const SCREENSHOTS_DIR = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;

const chromiumPackage = createRequire(import.meta.url)
  .resolve('@sparticuz/chromium')
  .replace(/\/build\/.*$/, '/package.json');
const chromiumVersion = (JSON.parse(readFileSync(chromiumPackage, 'utf8')) as { version: string }).version;

/**
 * Headless Chromium from the npm package @sparticuz/chromium (installed by `npm ci`, no download), driven by
 * playwright-core 1.57, whose protocol matches Chromium 143. The package unpacks its binary into the temp
 * directory; a directory per version keeps a stale binary of another version from being picked up.
 */
export async function launchBrowser(): Promise<Browser> {
  const unpackInto = join(tmpdir(), `payment-qr-chromium-${chromiumVersion}`);
  mkdirSync(unpackInto, { recursive: true });
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = unpackInto;
  try {
    const executablePath = await chromium.executablePath();
    // The page's own security headers must be in force (keep the same-origin policy on); one process per renderer,
    // since a single-process Chromium dies when a test closes its context and opens another.
    const args = chromium.args.filter((arg) => arg !== '--disable-web-security' && arg !== '--single-process');
    return await playwright.launch({ executablePath, args, headless: true });
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
}

/** One browser for the whole file: a browser costs seconds to start on a 2-core machine. */
export const usingBrowser = (): Browser => sharedByFile('the browser', launchBrowser, (browser) => browser.close());

/** A phone-sized context, as most customers open a checkout page. */
export const mobileContext = (browser: Browser, options: { locale?: string; javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> =>
  browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: options.locale ?? 'th-TH',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });

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
  const axe = await new AxeBuilder({ page }).analyze();
  expect({ what, violations: axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`) }).toEqual({
    what,
    violations: [],
  });
}

/** The README's pictures: written by the tests that take them only when UPDATE_DOCS_IMAGES=1, so a test run leaves git clean. */
export const DOCS_IMAGES_DIR = new URL('../../../docs/images/', import.meta.url).pathname;

export async function screenshot(page: Page, name: string, options: { docs?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
  if (options.docs && process.env.UPDATE_DOCS_IMAGES === '1') await page.screenshot({ path: join(DOCS_IMAGES_DIR, `${name}.png`), fullPage: true });
}
