import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/main.js';
import { apiClient } from './support/http.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const dataDir = join(mkdtempSync(join(tmpdir(), 'pqr-cli-keys-')), 'pglite');
const env = { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: dataDir };

/** The CLI as an operator runs it (against DATABASE_URL when set, else a private embedded data directory). */
const cli = async (...args: string[]): Promise<string> => (await run('node', ['--import', 'tsx', 'server/src/cli.ts', ...args], { cwd: root, env })).stdout;
const refusal = (...args: string[]): Promise<{ code: number; stderr: string }> =>
  cli(...args).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );

describe('npm run cli -- keys roll | list | revoke', { timeout: 300_000 }, () => {
  it("rolls, lists and revokes a merchant's keys; the server honours each", async () => {
    const { merchant_id: merchant, api_key: first } = JSON.parse(await cli('merchants', 'create', '--name', 'Key Shop', '--json'));

    const rolled = JSON.parse(await cli('keys', 'roll', '--merchant', merchant, '--expire-old-in', '0', '--json'));
    expect(rolled.api_key).toMatch(/^sk_test_/);
    expect(rolled.replaced).toEqual([expect.objectContaining({ last4: first.slice(-4), expires_at: expect.any(String) })]);
    const second: string = rolled.api_key;

    const listed = await cli('keys', 'list', '--merchant', merchant, '--json');
    expect(listed).not.toContain(first);
    expect(listed).not.toContain(second);
    const { keys } = JSON.parse(listed);
    expect(keys.map((key: { last4: string }) => key.last4)).toEqual([second.slice(-4), first.slice(-4)]);
    expect(keys[0]).toEqual({
      prefix: second.slice(0, 12),
      last4: second.slice(-4),
      created_at: expect.any(String),
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
    });

    expect(await cli('keys', 'revoke', '--key-last4', second.slice(-4), '--merchant', merchant)).toMatch(/^Revoked sk_test_/);
    const third = (await cli('keys', 'roll', '--merchant', merchant)).match(/sk_test_\S+/)?.[0];
    expect(third).toBeDefined();
    expect(await cli('keys', 'list', '--merchant', merchant)).toMatch(/revoked 20\d\d-/);

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
      const status = async (apiKey: string) => (await apiClient(server.url, { apiKey }).get('/Thai/v1/transactions')).status;
      expect([await status(first), await status(second), await status(third!)]).toEqual([401, 401, 200]); // expired, revoked, current
    } finally {
      await server.stop();
    }
  });

  it('refuses bad durations, unknown merchants and keys with a clear message and a non-zero exit', async () => {
    const { merchant_id: merchant } = JSON.parse(await cli('merchants', 'create', '--name', 'Strict Shop', '--json'));
    const cases: [string[], RegExp][] = [
      [['keys', 'roll', '--merchant', merchant, '--expire-old-in', '5x'], /--expire-old-in: '5x' is not a duration/],
      [['keys', 'roll', '--merchant', 'mch_nobody'], /No merchant with id 'mch_nobody'/],
      [['keys', 'revoke', '--key-last4', 'zzzz', '--merchant', merchant], /no unrevoked key ending in 'zzzz'/],
      [['keys', 'revoke', '--merchant', merchant], /--key-last4 must be/],
      [['keys', 'list'], /--merchant is required/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await refusal(...args);
      expect(code, args.join(' ')).toBe(1);
      expect(stderr).toMatch(message);
    }
  });
});
