import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'promptparse';
import { describe, expect, it } from 'vitest';
import { CliFailure, runCli } from './support/cli-process.js';
import { apiClient } from './support/http.js';
import { scratchDir } from './support/scratch-dir.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

/** The CLI as an operator runs it, against a private embedded data directory (or DATABASE_URL when set). */
function cli(args: string[], env: Record<string, string>) {
  return run('node', ['--import', 'tsx', 'server/src/cli/cli.ts', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
}

// Each case starts Node processes (tsx, PGlite): allow for a busy machine.
describe('npm run cli -- merchants create', { timeout: 180_000 }, () => {
  const dataDir = join(scratchDir('pqr-cli-'), 'pglite');

  it('prints a merchant id and a working test key as JSON', async () => {
    const { stdout } = await cli(['merchants', 'create', '--name', 'Noodle Shop', '--json'], { DATA_DIR: dataDir });
    const created = JSON.parse(stdout);
    expect(created.merchant_id).toMatch(/^mch_/);
    expect(created.api_key).toMatch(/^sk_test_/);

    const { startServer } = await import('../src/main.js');
    const { loadConfig } = await import('../src/config.js');
    const server = await startServer(
      loadConfig({
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'silent',
        WEBHOOK_DISPATCHER: 'off',
      }),
    );
    try {
      const res = await apiClient(server.url, { apiKey: created.api_key }).post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
      expect(res.status).toBe(200);
      // No --promptpay-id: its test QR codes name a PromptPay proxy no bank can hold (README, "Test mode").
      expect(parse(res.body.qr_data, true)!.getTagValue('29', '01')).toBe('0066000000000');

      // PGlite allows one process: while the server holds the embedded data directory the CLI refuses to open it.
      if (!process.env.DATABASE_URL) {
        const refused = await cli(['merchants', 'create', '--name', 'Second', '--json'], { DATA_DIR: dataDir }).catch(
          (error: { stderr: string; code: number }) => error,
        );
        expect((refused as { code: number }).code).toBe(1);
        expect((refused as { stderr: string }).stderr).toMatch(/in use by another process/);
      }
    } finally {
      await server.stop();
    }
  });

  // Its rules, through the function the bin calls (./support/cli-process.ts): the bin itself is the case above.
  it('issues live keys only with a PromptPay id, and validates it', async () => {
    const live = await runCli(['merchants', 'create', '--name', 'Live Shop', '--live', '--promptpay-id', '0891234567', '--json'], { DATA_DIR: dataDir });
    expect(JSON.parse(live.stdout).api_key).toMatch(/^sk_live_/);
    const missing = await runCli(['merchants', 'create', '--name', 'Live', '--live'], { DATA_DIR: dataDir }).catch((error: CliFailure) => error);
    expect((missing as CliFailure).stderr).toMatch(/--live needs/);
    const bad = await runCli(['merchants', 'create', '--name', 'X', '--promptpay-id', '12'], { DATA_DIR: dataDir }).catch((error: CliFailure) => error);
    expect((bad as CliFailure).stderr).toMatch(/--promptpay-id '12' must be/);
  });
});
