import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { durableDatabase } from '../webhooks/fixtures.js';
import { startLiveBank } from '../support/bank.js';

const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;
const cli = (args: string[], env: Record<string, string>) =>
  run('node', ['--import', 'tsx', 'server/src/cli.ts', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });

let database: Awaited<ReturnType<typeof durableDatabase>>;
beforeAll(async () => {
  database = await durableDatabase();
});
afterAll(async () => {
  await database?.drop();
});

it('npm run cli -- bank unmatched [--json] lists money that settled no payment, for the operator', { timeout: 180_000 }, async () => {
  const live = await startLiveBank({ env: database.env });
  let transactionId: string;
  try {
    const { qrData } = await live.liveQr(15000);
    transactionId = live.bank.pay({ qr_data: qrData, paid_amount: '15.00' }).transaction.transactionId;
    await live.bank.callbacksSettled();
  } finally {
    await live.stop(); // PGlite admits one process: the CLI opens the data directory after the server let go of it
  }
  const { stdout } = await cli(['bank', 'unmatched', '--json'], database.env);
  const listed = JSON.parse(stdout);
  expect(listed).toMatchObject({ total: 1, unmatched: [{ bank_transaction_id: expect.stringMatching(/^btx_/), transaction_id: transactionId, reason: 'amount_mismatch', amount: '15.00' }] });
  const text = await cli(['bank', 'unmatched'], database.env);
  expect(text.stdout).toMatch(/1 unmatched bank transaction/);
  expect(text.stdout).toContain(transactionId);
});
