import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/main.js';
import { runCli } from './support/cli-process.js';
import { apiClient } from './support/http.js';
import { scratchDir } from './support/scratch-dir.js';

const dataDir = join(scratchDir('pqr-cli-keys-'), 'pglite');
const env = { DATA_DIR: dataDir };

/** The CLI as an operator runs it (against DATABASE_URL when set, else a private embedded data directory). */
const cli = async (...args: string[]): Promise<string> => (await runCli(args, env)).stdout;
const refusal = (...args: string[]): Promise<{ code: number; stderr: string }> =>
  cli(...args).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );

const serverOn = (dir: string) =>
  startServer(
    loadConfig({
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      WEBHOOK_DISPATCHER: 'off',
    }),
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
      permissions: null,
    });

    expect(await cli('keys', 'revoke', `--key-last4=${second.slice(-4)}`, '--merchant', merchant)).toMatch(/^Revoked sk_test_/);
    const third = (await cli('keys', 'roll', '--merchant', merchant)).match(/sk_test_\S+/)?.[0];
    expect(third).toBeDefined();
    expect(await cli('keys', 'list', '--merchant', merchant)).toMatch(/revoked 20\d\d-/);

    const server = await serverOn(dataDir);
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
      // A key's last four may start with '-' (base64url): with '=' it is read as the value, not as an option.
      [['keys', 'revoke', '--key-last4=-zzz', '--merchant', merchant], /no unrevoked key ending in '-zzz'/],
      [['keys', 'revoke', '--merchant', merchant], /--key-last4 must be/],
      [['keys', 'list'], /--merchant is required/],
      [['keys', 'create', '--merchant', merchant, '--permissions', 'refunds:delete'], /--permissions: Unknown permission "refunds:delete"/],
      [['keys', 'create', '--merchant', merchant, '--permissions', ','], /--permissions: Give at least one permission/],
      [['keys', 'roll', '--merchant', merchant, '--permissions', 'payments:read'], /--permissions is given to keys create only/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await refusal(...args);
      expect(code, args.join(' ')).toBe(1);
      expect(stderr).toMatch(message);
    }
  });

  it('creates a restricted key that may do only what it lists, which a roll leaves alone; every key action is audited as the operator', async () => {
    const { merchant_id: merchant, api_key: first } = JSON.parse(await cli('merchants', 'create', '--name', 'Till Shop', '--json'));
    const created = JSON.parse(await cli('keys', 'create', '--merchant', merchant, '--permissions', 'payments:read, qr_codes:write', '--json'));
    expect(created.api_key).toMatch(/^rk_test_[A-Za-z0-9_-]{32}$/);
    expect(created.key).toMatchObject({
      prefix: created.api_key.slice(0, 12),
      last4: created.api_key.slice(-4),
      permissions: ['qr_codes:write', 'payments:read'],
    });
    const pos: string = created.api_key;
    expect(await cli('keys', 'create', '--merchant', merchant)).toMatch(/^New API key for mch_\S+ \(shown once, stored only as a hash\): sk_test_\S+$/m);

    const rolled = JSON.parse(await cli('keys', 'roll', '--merchant', merchant, '--expire-old-in', '0', '--json'));
    expect(rolled.replaced.map((key: { last4: string }) => key.last4)).not.toContain(pos.slice(-4));
    expect(rolled.replaced).toHaveLength(2); // the first key and the unrestricted one created beside it
    const listed = await cli('keys', 'list', '--merchant', merchant);
    expect(listed).toContain(`${pos.slice(0, 12)}...${pos.slice(-4)}  restricted to qr_codes:write,payments:read  created`);
    expect(listed).toMatch(/sk_test_\S+\.\.\.\S{4} {2}unrestricted {2}created/);
    expect(await cli('keys', 'revoke', `--key-last4=${first.slice(-4)}`, '--merchant', merchant)).toMatch(/^Revoked sk_test_/);

    const server = await serverOn(dataDir);
    try {
      const api = apiClient(server.url, { apiKey: pos });
      expect((await api.post('/Thai/v1/qr-codes', { amount: 10_000, currency: 'THB' })).status).toBe(200);
      expect((await api.get('/Thai/v1/payments')).status).toBe(200);
      expect((await api.get('/Thai/v1/balance')).body.error).toMatchObject({ code: 'permission_denied', type: 'permission_error' });

      const entries = (await server.runtime.services.uow.repos.audit.list(merchant, {}, { limit: 100, offset: 0 })).items.reverse();
      expect(entries.map((entry) => [entry.action, entry.details.last4])).toEqual([
        ['api_key_created', pos.slice(-4)],
        ['api_key_created', expect.any(String)],
        ['api_key_rolled', rolled.api_key.slice(-4)],
        ['api_key_revoked', first.slice(-4)],
      ]);
      expect(entries[0]!.details.permissions).toBe('qr_codes:write,payments:read');
      for (const entry of entries) expect(entry.context).toEqual({ actor: { kind: 'operator' }, channel: 'cli', clientAddress: null });
    } finally {
      await server.stop();
    }
  });
});
