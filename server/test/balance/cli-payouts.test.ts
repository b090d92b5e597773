import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runCli } from '../support/cli-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch-dir.js';

/** The operator's CLI as a process: its exit code is the contract with scripts that drive it. */
function cli(args: string[], env: Record<string, string>) {
  return runCli(args, env);
}
const exitOf = (promise: Promise<unknown>) =>
  promise.then(() => ({ code: 0, stderr: '' })).catch((error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }));

/** On PostgreSQL the CLI gets a database of its own: an export must only ever see this test's withdrawals. */
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

describe('npm run cli -- merchants / withdrawals (payouts)', { timeout: 180_000 }, () => {
  const dir = scratchDir('pqr-cli-payouts-');
  const scratch = `pqr_test_cli_${randomBytes(5).toString('hex')}`;
  const env: Record<string, string> = { DATA_DIR: join(dir, 'pglite') };
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) return;
    await admin(`CREATE DATABASE ${scratch}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${scratch}`;
    env.DATABASE_URL = url.toString();
  });
  afterAll(async () => {
    if (process.env.DATABASE_URL) await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  });

  it('creates a merchant with a payout account and fee, exports with nothing pending (exit 0), refuses bad input (exit 1)', async () => {
    const created = await cli(
      [
        'merchants',
        'create',
        '--name',
        'Live Shop',
        '--live',
        '--promptpay-id',
        '0891234567',
        '--bank-code',
        '014',
        '--account-number',
        '1234567890',
        '--account-name',
        'Live Shop',
        '--fee-bps',
        '250',
        '--json',
      ],
      env,
    );
    const { merchant_id: merchantId } = JSON.parse(created.stdout);
    expect(merchantId).toMatch(/^mch_/);

    const out = join(dir, 'empty.csv');
    expect((await exitOf(cli(['withdrawals', 'export', '--out', out], env))).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('reference,amount_satang,amount_thb,bank_code,account_number,account_name\r\n');

    const unknown = await exitOf(cli(['withdrawals', 'mark', 'wd_doesnotexist', '--succeeded'], env));
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toMatch(/No withdrawal with id 'wd_doesnotexist'/);
    const badBank = await exitOf(
      cli(['merchants', 'payout-account', '--merchant', merchantId, '--bank-code', '123', '--account-number', '1234567890', '--account-name', 'X'], env),
    );
    expect(badBank).toMatchObject({ code: 1 });
    expect(badBank.stderr).toMatch(/bank code '123'/);
    expect((await exitOf(cli(['merchants', 'fees', '--merchant', merchantId, '--fee-bps', '5001'], env))).code).toBe(1);
    expect((await exitOf(cli(['merchants', 'fees', '--merchant', merchantId, '--fee-bps', '100'], env))).code).toBe(0);
    const partial = await exitOf(cli(['merchants', 'create', '--name', 'X', '--bank-code', '014'], env));
    expect(partial.stderr).toMatch(/--bank-code, --account-number and --account-name together/);
  });
});
