import { readFileSync } from 'node:fs';
import { contractPath } from '@payment-qr/contract';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { recordTraffic, screenshot, usingBrowser } from '../support/browser.js';
import { usingTestServer } from '../support/test-server.js';

const { server } = usingTestServer();
const browser = usingBrowser();

describe('the API reference', { timeout: 180_000 }, () => {
  it('serves the contract as YAML and as the same JSON, without a key', async () => {
    const yaml = await fetch(`${server.url}/openapi.yaml`);
    const json = await fetch(`${server.url}/openapi.json`);
    expect([yaml.status, json.status]).toEqual([200, 200]);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    const contract = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(contract).toEqual(parse(await yaml.text()));
    expect(contract.openapi).toBe('3.1.0');
    expect(Object.keys(contract.paths)).toContain('/Thai/pay/{qr_code_id}');
  });

  it('renders every operation at /docs in a real browser, with Redoc served by the service itself', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const traffic = recordTraffic(page);
    await page.goto(`${server.url}/docs`);
    await page.getByRole('heading', { name: 'Generate a PromptPay QR code and its pending payment' }).waitFor({ timeout: 120_000 }); // Redoc lays out the whole contract first: about 30 s on a quiet 2-core machine
    const headings = await page.locator('h2').evaluateAll((nodes) => nodes.map((node) => node.textContent?.trim()));
    const contract = parse(readFileSync(contractPath, 'utf8')) as { paths: Record<string, Record<string, { summary?: string }>> };
    const summaries = Object.values(contract.paths).flatMap((item) => ['get', 'post', 'delete'].flatMap((method) => item[method]?.summary ?? []));
    expect(summaries.length).toBeGreaterThan(20);
    expect(summaries.filter((summary) => !headings.includes(summary))).toEqual([]);
    const origin = new URL(server.url).origin;
    expect(traffic.requests.filter((url) => !url.startsWith('blob:') && !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
    expect(traffic.errors).toEqual([]);
    await screenshot(page, 'docs');
    await page.close();
  });
});
