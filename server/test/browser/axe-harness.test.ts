// The harness's axe check reports only violations in full (resultTypes), yet runs every rule: a page with a picture
// without words and grey text on white must still be refused, or every browser test's axe check could pass vacuously.
import { expect, it } from 'vitest';
import { axeViolations, usingBrowser } from '../support/browser.js';

const browser = usingBrowser();

it('still finds a missing alt text and too little contrast, with their nodes', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Slip</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#ccc;background:#fff">faint</p></main></body></html>',
    );
    const violations = await axeViolations(page);
    expect(violations.map((v) => v.id).sort()).toEqual(['color-contrast', 'image-alt']);
    expect(violations.every((v) => v.nodes.length === 1)).toBe(true);
  } finally {
    await context.close();
  }
});
