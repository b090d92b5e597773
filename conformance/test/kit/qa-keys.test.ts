import { afterAll, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { runKit } from '../../src/run.js';
import { startService } from '../support/in-process.js';

// QA's first run: the key from the environment, a key the deployment rejects, and a restricted key.
const service = await startService();
afterAll(() => service.stop());
const { operator } = service.target;
const merchant = await operator!.newMerchant();

const run = async (args: string[], env: NodeJS.ProcessEnv) => {
  const printed: string[] = [];
  const code = await main(args, (line) => printed.push(...line.split('\n')), env);
  return { code, printed };
};

it('takes the key from PAYMENT_QR_API_KEY, so no command line (nor npm banner) shows it', async () => {
  const { code, printed } = await run(['--base-url', service.url, '--only', 'request-id'], { PAYMENT_QR_API_KEY: merchant.apiKey });
  expect(printed.join('\n')).not.toContain(merchant.apiKey);
  expect(printed.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  expect(code).toBe(0);
});

it('reports a key the deployment rejects in one line, with exit status 2, and checks nothing', async () => {
  const rejected = 'sk_test_NotAKeyThisDeploymentKnows0000';
  const { code, printed } = await run(['--base-url', service.url], { PAYMENT_QR_API_KEY: rejected });
  expect(code).toBe(2);
  const verdict = printed.filter((line) => !line.startsWith('payment-qr-conformance: checking '));
  expect(verdict).toEqual([expect.stringMatching(/^payment-qr-conformance: the deployment rejects the API key sk_test_…0000 \(HTTP 401 /)]);
  expect(printed.join('\n')).not.toContain(rejected);
});

it('accepts a restricted key and reports the checks its permissions do not cover as not run, each saying which permission', async () => {
  const restricted = await operator!.restrictedKey!(merchant.merchantId!, ['qr_codes:write', 'payments:read']);
  const results = await runKit({ target: { baseUrl: service.url, apiKey: restricted }, only: ['pact', 'errors'] });
  const shown = results.map((r) => `${r.outcome} ${r.group} › ${r.name}${r.message ? `: ${r.message}` : ''}`).join('\n');
  expect(
    results.filter((r) => r.outcome === 'failed'),
    shown,
  ).toEqual([]);
  const uncovered = results.filter((r) => r.outcome === 'not-run' && r.message?.startsWith('not covered by this restricted key'));
  expect(uncovered.length, shown).toBeGreaterThan(0);
  for (const result of uncovered) expect(result.message).toMatch(/lacks the permission '[a-z_]+:(read|write)'|[a-zA-Z]+ answered 403 permission_denied/);
  expect(results.filter((r) => r.outcome === 'passed').length, shown).toBeGreaterThan(5);
}, 300_000);
