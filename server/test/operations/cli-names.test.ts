import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRuntime } from '../../src/main.js';
import { operatorCli, type OperatorCli, payoutAccountArgs } from '../support/operator-cli.js';

// Names the operator gives end up on screens, in bank files and spreadsheets: control characters and very long
// names are refused before anything is written.
let cli: OperatorCli;
beforeAll(async () => {
  cli = await operatorCli('pqr-cli-names-');
});
afterAll(() => cli.drop());

describe('npm run cli: names given to --name and --account-name', { timeout: 180_000 }, () => {
  it('refuses control characters and names over 100 characters (exit 1, nothing written); takes 100', async () => {
    const bell = await cli.exit(['merchants', 'create', '--name', 'Noodle\u0007Shop']);
    expect(bell.code).toBe(1);
    expect(bell.stderr).toMatch(/--name must not hold control characters/);
    const long = await cli.exit(['merchants', 'create', '--name', 'ก'.repeat(101)]);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/--name must be at most 100 characters \(it has 101\)/);
    const badAccount = await cli.exit([
      'merchants',
      'create',
      '--name',
      'Noodle Shop',
      '--bank-code',
      '014',
      '--account-number',
      '1234567890',
      '--account-name',
      'Noodle\nShop',
    ]);
    expect(badAccount.code).toBe(1);
    expect(badAccount.stderr).toMatch(/account name must not hold control characters/);

    const created = await cli.run(['merchants', 'create', '--name', 'ก'.repeat(100), '--json']);
    const merchantId = JSON.parse(created.stdout).merchant_id as string;
    for (const accountName of ['x'.repeat(101), 'Tab\there', '\u202Eevil']) {
      const refused = await cli.exit(payoutAccountArgs(merchantId, { bankCode: '014', accountNumber: '1234567890', accountName }));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/account name must/);
    }
    const set = await cli.exit(payoutAccountArgs(merchantId, { bankCode: '014', accountNumber: '1234567890', accountName: 'y'.repeat(100) }));
    expect(set.code).toBe(0);

    const runtime = await openRuntime(loadConfig({ ...cli.env, LOG_LEVEL: 'silent' }));
    try {
      expect(await runtime.services.uow.repos.merchants.count()).toBe(1);
      const merchant = await runtime.services.uow.repos.merchants.findById(merchantId);
      expect(merchant).toMatchObject({ name: 'ก'.repeat(100), payoutAccount: { accountName: 'y'.repeat(100) } });
    } finally {
      await runtime.close();
    }
  });
});
