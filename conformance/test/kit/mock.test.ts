import { afterAll, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { startPrismMock } from '../support/prism.js';
import { SERVED_PATHS_CONTRACT } from '../support/served-paths.js';

// prism mock of the served-paths contract: it answers the contract's examples and keeps nothing.
const prism = await startPrismMock(SERVED_PATHS_CONTRACT);
afterAll(() => prism.stop());

it('runs against prism mock and reports which checks need a real service, instead of crashing', async () => {
  const printed: string[] = [];
  const code = await main(['--base-url', prism.url, '--api-key', 'sk_test_prism_mock_key'], (line) => printed.push(...line.split('\n')));
  const output = printed.join('\n');
  expect(code, output).toBe(1); // the first check finds that the target keeps nothing it is sent
  expect(printed.filter((line) => line.startsWith('FAIL'))).toEqual(['FAIL  service › keeps what it is sent: a new QR code reads back as its payment']);
  expect(output).toMatch(/the target does not keep what it is sent \(a mock\?\)/);
  // States and idempotency need records: reported, not failed. Checks of the contract alone (e.g. its 4xx coverage) still pass.
  for (const group of ['pact', 'idempotency', 'pagination', 'webhooks', 'generated']) {
    const lines = printed.filter((line) => line.includes(` ${group} › `));
    expect(lines.length, group).toBeGreaterThan(0);
    expect(
      lines.filter((line) => !(line.startsWith('SKIP') && line.includes('needs a real service'))),
      group,
    ).toEqual([]);
  }
  expect(printed.at(-1)).toMatch(/^\d+ passed, 1 failed$/);
}, 300_000);
