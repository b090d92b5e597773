// A developer's first hour, as they would have it: the packed SDK installed from its tarball into a project made by
// `npm init -y` (CommonJS by default), the README's quick start saved and run exactly as the README says, against
// the real server; and every link of the README resolving inside the package the tarball ships.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentQrClient } from '../src/index.js';
import { EXAMPLE_BLOCK, readmePath } from '../scripts/sync-readme.js';
import { startApi, type TestServer } from './support/api.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(readmePath, 'utf8');
const envOf = (env: Record<string, string>) => ({ ...process.env, ...env, npm_config_audit: 'false', npm_config_fund: 'false' });
const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: envOf(env) });
/** A command while the in-process server answers it (a synchronous child would stop the server's event loop). */
const runBeside = async (command: string, args: string[], cwd: string, env: Record<string, string>) =>
  (await promisify(execFile)(command, args, { cwd, encoding: 'utf8', env: envOf(env) })).stdout;

/** The quick start's code block, and the command the README gives to run it. */
function quickStartOfReadme(): { code: string; command: string } {
  const block = [...readme.matchAll(EXAMPLE_BLOCK)].find(([, file]) => file === 'examples/quick-start.ts');
  const command = /^PAYMENT_QR_API_KEY=sk_test_\.\.\. PAYMENT_QR_BASE_URL=\S+ (npx tsx \S+)$/m.exec(readme)?.[1];
  if (!block?.[2] || !command) throw new Error('the README has no quick start with its command');
  return { code: block[2], command };
}

let scratch: string;
let tarball: string;
let packed: string[];
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'payment-qr-fresh-'));
  // The dist/ the build made (turbo's test task builds first; alone: `npm run build -w sdk`), packed as it is: a pack
  // that builds first (prepack) would rewrite dist/ while the conformance suite packs it too. That a clean clone's
  // pack builds first is ./package.test.ts's to show.
  if (!existsSync(join(repoRoot, 'sdk/dist/index.js'))) throw new Error('sdk/dist has no build: run `npm run build -w sdk` first');
  run('npm', ['pack', '-w', 'sdk', '--ignore-scripts', '--pack-destination', scratch], repoRoot);
  tarball = join(scratch, readdirSync(scratch).find((name) => name.endsWith('.tgz')) ?? 'missing.tgz');
  packed = run('tar', ['-tzf', tarball], scratch)
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
}, 240_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the README in the package', () => {
  it('links only to files the tarball holds, or to absolute URLs', () => {
    const prose = readme.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, ''); // code is not a link
    const links = [...prose.matchAll(/\]\(([^)\s]+)\)|\b(?:src|href)="([^"]+)"/g)].map(([, markdown, html]) => (markdown ?? html ?? '').replace(/#.*$/, ''));
    const relative = links.filter((link) => link !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(link));
    expect(relative.length).toBeGreaterThan(0);
    for (const link of relative) expect(packed, `README links to ${link}`).toContain(link.replace(/^\.\//, ''));
  });

  it('lists every resource of the client', () => {
    const client = new PaymentQrClient({ apiKey: 'sk_test_listing', baseUrl: 'http://127.0.0.1:9' });
    const resources = Object.keys(client).filter((key) => typeof (client as unknown as Record<string, unknown>)[key] === 'object');
    expect(resources).toEqual(expect.arrayContaining(['reports', 'tills', 'slipVerifications']));
    for (const resource of resources) expect(readme, `client.${resource}`).toContain(`| \`client.${resource}\` |`);
  });
});

describe('the quick start in a fresh `npm init -y` project', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api?.stop());

  it('runs as written: QR code, payment, partial refund', async () => {
    const project = join(scratch, 'my-shop');
    mkdirSync(project);
    run('npm', ['init', '-y'], project);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    // From the tarball; its two dependencies from npm's cache when there (the registry otherwise).
    run('npm', ['install', tarball, '--prefer-offline'], project);

    const { code, command } = quickStartOfReadme();
    writeFileSync(join(project, command.split(' ').at(-1)!), code);
    const { apiKey } = await api.merchant();
    // The README's command as it stands; npx fetches tsx without asking (no terminal here), from npm's cache when there.
    const output = await runBeside('sh', ['-c', command], project, {
      PAYMENT_QR_API_KEY: apiKey,
      PAYMENT_QR_BASE_URL: api.url,
      npm_config_yes: 'true',
      npm_config_prefer_offline: 'true',
    });
    const [payment] = await new PaymentQrClient({ apiKey, baseUrl: api.url }).payments.list().toArray();
    expect(payment).toMatchObject({ amount: 150_000, status: 'succeeded', refunded_amount: 50_000 });
    expect(output).toContain(`Payment ${payment!.payment_id} is succeeded`);
    expect(output).toMatch(/^Refund rfd_\w+: succeeded$/m);
  }, 180_000);
});
