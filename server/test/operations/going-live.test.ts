import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { parse } from 'promptparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBankSimulator, type BankSimulator } from '../../../scripts/bank-simulator/simulator.js';
import { buildServer } from '../../build.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { bankSettings, callbackUrlOf, scbEnv } from '../support/bank.js';
import { apiClient } from '../support/http.js';
import { operatorCli, type OperatorCli } from '../support/operator-cli.js';

const SERVER_DIR = new URL('../..', import.meta.url).pathname;

/**
 * The quick start as the README gives it: `npm start` (the built server) on the embedded database, which creates the
 * sandbox merchant and prints its key; stopped as an operator stops it (Ctrl-C), so that the CLI may open the data.
 */
async function quickStart(dataDir: string): Promise<string> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: SERVER_DIR,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const printed = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const key = /(sk_test_\S+)[\s\S]*curl/.exec(output);
      if (key) resolve(key[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before printing its key:\n${output}`)));
  });
  const key = await printed;
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  await exited;
  return key;
}

// The quick start runs on the embedded database (on PostgreSQL it creates no merchant), so this path is embedded.
let cli: OperatorCli;
let bank: BankSimulator;
let server: RunningServer | null = null;
beforeAll(async () => {
  cli = await operatorCli('pqr-going-live-', { embedded: true });
  [bank] = await Promise.all([startBankSimulator({ ...bankSettings, retryDelayMs: 100 }), buildServer()]);
});
afterAll(async () => {
  await server?.stop();
  await bank?.stop();
  await cli?.drop();
});

describe('going live from the quick start (README, "Going live")', { timeout: 180_000 }, () => {
  it('BANK=scb merchants create --live needs no --promptpay-id, takes a payout account, and works on the quick start data', async () => {
    const sandboxKey = await quickStart(cli.env.DATA_DIR!);

    const bankEnv = scbEnv(bank);
    const refused = await cli.exit(['merchants', 'create', '--name', 'My Shop', '--live']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--live needs BANK=scb/);
    const created = await cli.run(
      [
        'merchants',
        'create',
        '--name',
        'My Shop',
        '--live',
        '--bank-code',
        '004',
        '--account-number',
        '1234567890',
        '--account-name',
        'My Shop Co., Ltd.',
        '--json',
      ],
      bankEnv,
    );
    const liveKey = JSON.parse(created.stdout).api_key as string;
    expect(liveKey).toMatch(/^sk_live_/);

    server = await startServer(loadConfig({ ...cli.env, ...bankEnv, PORT: '0', LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
    bank.setCallbackUrl(callbackUrlOf(server.url));
    const live = apiClient(server.url, { apiKey: liveKey });
    const qr = await live.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' });
    expect(qr.status, qr.text).toBe(200);
    expect(parse(qr.body.qr_data)!.getTagValue('30', '01')).toBe(bankSettings.billerId); // a bill payment to the operator's biller id
    bank.pay({ qr_data: qr.body.qr_data });
    await bank.callbacksSettled();
    expect((await live.get(`/Thai/v1/payments/${qr.body.payment_id}`)).body.status).toBe('succeeded');
    const withdrawal = await live.post('/Thai/v1/withdrawals', { amount: 10000 });
    expect(withdrawal.status, withdrawal.text).toBe(200);
    expect(withdrawal.body.destination).toEqual({ bank_code: '004', bank_name: 'KBANK', account_last4: '7890', account_name: 'My Shop Co., Ltd.' });

    // The quick start's sandbox merchant still works beside it.
    const sandbox = apiClient(server.url, { apiKey: sandboxKey });
    const test = await sandbox.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB' });
    expect(test.status, test.text).toBe(200);
    expect((await sandbox.post(`/Thai/v1/test/payments/${test.body.payment_id}/succeed`)).status).toBe(200);
  });
});
