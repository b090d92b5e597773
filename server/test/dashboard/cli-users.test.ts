import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { operatorCli, type OperatorCli } from '../support/operator-cli.js';

const PUBLIC_BASE_URL = 'https://pay.example.test';
let operator: OperatorCli;
beforeAll(async () => {
  operator = await operatorCli('pqr-cli-users-');
});
afterAll(async () => {
  await operator?.drop();
});

describe('npm run cli -- users invite', { timeout: 300_000 }, () => {
  it('prints a one-time invitation URL under PUBLIC_BASE_URL, valid 72 h, that the server opens', async () => {
    const { merchant_id: merchant } = JSON.parse((await operator.run(['merchants', 'create', '--name', 'Invite Shop', '--json'])).stdout);
    const before = Date.now();
    const printed = JSON.parse(
      (await operator.run(['users', 'invite', '--merchant', merchant, '--email', ' Boss@Example.com ', '--role', 'owner', '--json'], { PUBLIC_BASE_URL }))
        .stdout,
    );
    expect(Object.keys(printed).sort()).toEqual(['expires_at', 'invitation_id', 'url']);
    expect(printed.invitation_id).toMatch(/^inv_/);
    expect(printed.url).toMatch(/^https:\/\/pay\.example\.test\/dashboard\/invitations\/[A-Za-z0-9_-]{43}$/);
    const validFor = Date.parse(printed.expires_at) - before;
    expect(validFor).toBeGreaterThan(72 * 3_600_000 - 60_000);
    expect(validFor).toBeLessThanOrEqual(72 * 3_600_000 + 60_000);

    const server = await startServer(loadConfig({ ...operator.env, PORT: '0', LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
    try {
      const page = await fetch(`${server.url}${new URL(printed.url).pathname}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('boss@example.com');
      expect(html).toContain('Invite Shop');
      expect((await fetch(`${server.url}/dashboard/invitations/${'x'.repeat(43)}`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('refuses an unknown merchant, an unknown role and a missing e-mail, inviting no one', async () => {
    const { merchant_id: merchant } = JSON.parse((await operator.run(['merchants', 'create', '--name', 'Refusals', '--json'])).stdout);
    const unknown = await operator.exit(['users', 'invite', '--merchant', 'mch_nope', '--email', 'a@example.com', '--role', 'owner']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No merchant with id 'mch_nope'");
    const badRole = await operator.exit(['users', 'invite', '--merchant', merchant, '--email', 'a@example.com', '--role', 'boss']);
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain("'boss' is not a role");
    const noEmail = await operator.exit(['users', 'invite', '--merchant', merchant, '--role', 'viewer']);
    expect(noEmail.code).toBe(1);
    expect(noEmail.stderr).toContain('--email is required');
    const badEmail = await operator.exit(['users', 'invite', '--merchant', merchant, '--email', 'not-an-address', '--role', 'viewer']);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stdout).toBe('');
  });
});
