import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../../server/test/support/cli-process.js';
import { createTestDatabase, seedDataDir } from '../../../server/test/support/migrated-start.js';
import { freePort } from './prism.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = /sk_test_[A-Za-z0-9_-]+/;

export interface BuiltServer {
  url: string;
  /** The sandbox key a QA engineer would be handed. */
  apiKey: string;
  stop(): Promise<void>;
}

/**
 * The service as deployed, in a process the kit does not start: `node server/dist/main.js` (the build), on PostgreSQL
 * when DATABASE_URL is set (a database of its own; the merchant made with the operator's CLI, as an operator does),
 * else on the embedded database in a temporary data directory (the sandbox merchant the first start prints). Either
 * database is a copy of the run's migrated one (server/test/support/migrated-start.ts): the kit checks the service, not
 * its first migration, which the server's own tests run from zero (test/cli.test.ts, operations/built-server.test.ts).
 * The CLI runs in this process (the function its bin calls), not through tsx. Its dispatcher runs; private webhook URLs
 * are allowed (as on a staging deployment that the pact's loopback URLs must reach) unless told otherwise.
 */
export async function startBuiltServer(options: { privateWebhookUrls?: boolean } = {}): Promise<BuiltServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'payment-qr-built-'));
  const postgres = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL, { migrated: true }) : null;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(dataDir, 'pglite'),
    WEBHOOK_ALLOW_PRIVATE_URLS: String(options.privateWebhookUrls ?? true),
    LOG_LEVEL: 'warn',
    EMBEDDED_SHARED_BUFFERS: '16MB', // a smaller buffer pool to clear at start (server/test/support/test-server.ts)
    SANDBOX_PAYOUT_INTERVAL_MS: '50', // the kit's paid-out withdrawals in about 0.1 s, not 1 s
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  if (!postgres) delete env.DATABASE_URL;
  let apiKey = '';
  if (postgres) {
    const made = [
      'merchants',
      'create',
      '--name',
      'QA merchant',
      '--json',
      '--bank-code',
      '014',
      '--account-number',
      '1234567890',
      '--account-name',
      'QA merchant',
    ];
    const { stdout } = await runCli(made, { DATABASE_URL: postgres.url });
    apiKey = (JSON.parse(stdout) as { api_key: string }).api_key;
  } else await seedDataDir(env.DATA_DIR);
  const child = spawn(process.execPath, ['server/dist/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null) throw new Error(`the built server exited with ${child.exitCode}:\n${output}`);
    const healthy = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!apiKey) apiKey = KEY.exec(output)?.[0] ?? '';
    if (healthy && apiKey) break;
    if (waited > 90_000) throw new Error(`the built server did not start within 90 s:\n${output}`);
    await sleep(200);
  }
  return {
    url,
    apiKey,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
