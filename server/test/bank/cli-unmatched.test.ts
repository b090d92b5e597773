import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli-process.js';
import { afterAll, expect, it } from 'vitest';
import { durableDatabase } from '../webhooks/fixtures.js';
import { startLiveBank } from '../support/bank.js';
import { scratchDir } from '../support/scratch-dir.js';

const cli = (args: string[], env: Record<string, string>) => runCli(args, env);
const exitOf = (promise: Promise<{ stdout: string }>) =>
  promise
    .then(({ stdout }) => ({ code: 0, stdout, stderr: '' }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));

/** Where the withdrawal exports are written. */
const exportDir = scratchDir('pqr-returns-');

const databases: Awaited<ReturnType<typeof durableDatabase>>[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});
/** Each test its own database: the CLI lists and exports everything in it. */
async function newDatabase() {
  const database = await durableDatabase();
  databases.push(database);
  return database.env;
}

/** Pays each QR code of a live merchant as given, then stops the server (PGlite admits one process: the CLI's, next). */
async function unmatchedPayments(
  env: Record<string, string>,
  payments: { amount: number; paid: string; payer?: { payer_account?: string; sending_bank_code?: string; payer_name?: string } }[],
) {
  const live = await startLiveBank({ env });
  try {
    const ids: string[] = [];
    for (const { amount, paid, payer } of payments) {
      const { qrData } = await live.liveQr(amount);
      ids.push(live.bank.pay({ qr_data: qrData, paid_amount: paid, ...payer }).transaction.transactionId);
    }
    await live.bank.callbacksSettled();
    return ids;
  } finally {
    await live.stop();
  }
}

it('npm run cli -- bank unmatched [--json] lists money that settled no payment, for the operator', { timeout: 180_000 }, async () => {
  const env = await newDatabase();
  const [transactionId] = await unmatchedPayments(env, [{ amount: 15000, paid: '15.00' }]);
  const { stdout } = await cli(['bank', 'unmatched', '--json'], env);
  const listed = JSON.parse(stdout);
  expect(listed).toMatchObject({
    total: 1,
    unmatched: [
      { bank_transaction_id: expect.stringMatching(/^btx_/), transaction_id: transactionId, reason: 'amount_mismatch', amount: '15.00', status: 'open' },
    ],
  });
  const text = await cli(['bank', 'unmatched'], env);
  expect(text.stdout).toMatch(/1 open unmatched bank transaction/);
  expect(text.stdout).toContain(transactionId);
});

it(
  'returns unmatched money to the payer once, through the next withdrawals export, or closes it with a note; lists open ones by default',
  { timeout: 240_000 },
  async () => {
    const env = await newDatabase();
    const [toReturn, masked, toResolve] = await unmatchedPayments(env, [
      { amount: 15000, paid: '100.00', payer: { payer_account: '1234567890', sending_bank_code: '004', payer_name: 'SOMCHAI JAIDEE' } },
      { amount: 15000, paid: '99.00', payer: { payer_account: 'xxx-x-x8820-x', sending_bank_code: '004' } },
      { amount: 15000, paid: '50.00', payer: { payer_account: '9876543210', sending_bank_code: '014' } },
    ]);
    const all = JSON.parse((await cli(['bank', 'unmatched', '--json'], env)).stdout) as {
      total: number;
      unmatched: { bank_transaction_id: string; transaction_id: string }[];
    };
    expect(all.total).toBe(3);
    const btx = (transactionId: string) => all.unmatched.find((u) => u.transaction_id === transactionId)!.bank_transaction_id;

    const returned = await exitOf(cli(['bank', 'unmatched', 'return', btx(toReturn!)], env));
    expect(returned).toMatchObject({ code: 0 });
    expect(returned.stdout).toMatch(/goes back to account ending 7890 at bank 004 in the next withdrawals export/);
    const again = await exitOf(cli(['bank', 'unmatched', 'return', btx(toReturn!)], env));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already returned once/);
    const refused = await exitOf(cli(['bank', 'unmatched', 'return', btx(masked!)], env));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\('xxx-x-x8820-x'\) is not 10 to 15 digits/);
    expect((await exitOf(cli(['bank', 'unmatched', 'resolve', btx(toResolve!)], env))).code).toBe(1); // a note is required
    expect((await exitOf(cli(['bank', 'unmatched', 'resolve', btx(toResolve!), '--note', 'Paid back by the merchant in cash, receipt 42'], env))).code).toBe(0);
    expect((await exitOf(cli(['bank', 'unmatched', 'resolve', btx(toReturn!), '--note', 'too late'], env))).stderr).toMatch(
      /returned \(pending\); only open unmatched money can be closed/,
    );

    // Open ones by default; --all shows what became of the others.
    expect(JSON.parse((await cli(['bank', 'unmatched', '--json'], env)).stdout)).toMatchObject({
      total: 1,
      unmatched: [{ transaction_id: masked, status: 'open' }],
    });
    const everything = JSON.parse((await cli(['bank', 'unmatched', '--all', '--json'], env)).stdout) as { total: number; unmatched: Record<string, unknown>[] };
    expect(everything.total).toBe(3);
    expect(everything.unmatched.find((u) => u.transaction_id === toReturn)).toMatchObject({
      status: 'return_pending',
      open: false,
      return: { bank_code: '004', account_last4: '7890', exported: false },
    });
    expect(everything.unmatched.find((u) => u.transaction_id === toResolve)).toMatchObject({
      status: 'resolved',
      open: false,
      note: 'Paid back by the merchant in cash, receipt 42',
    });

    // The return goes out in the next export, exactly once, to the account the bank listed.
    await cli(['withdrawals', 'export', '--out', join(exportDir, 'first.csv')], env);
    await cli(['withdrawals', 'export', '--out', join(exportDir, 'second.csv')], env);
    const first = readFileSync(join(exportDir, 'first.csv'), 'utf8').trim().split(/\r?\n/);
    expect(first.slice(1)).toEqual([`${btx(toReturn!)},10000,100.00,004,1234567890,SOMCHAI JAIDEE`]);
    expect(readFileSync(join(exportDir, 'second.csv'), 'utf8')).not.toContain(btx(toReturn!));

    // The bank's outcome is recorded as a refund's is.
    expect((await exitOf(cli(['withdrawals', 'mark', btx(toReturn!), '--succeeded'], env))).code).toBe(0);
    const after = JSON.parse((await cli(['bank', 'unmatched', '--all', '--json'], env)).stdout) as { unmatched: Record<string, unknown>[] };
    expect(after.unmatched.find((u) => u.transaction_id === toReturn)).toMatchObject({ status: 'return_succeeded', return: { exported: true } });
  },
);
