import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'promptparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../build.js';
import { seedDataDir } from '../support/migrated-start.js';
import { freshPostgresDatabase } from '../support/test-server.js';

/**
 * `npm start` runs the esbuild bundle (dist/main.js) without tsx: the files the code reads next to its sources
 * (templates, assets, fonts, Redoc, the contract) must resolve from the bundle as they do from the sources. On
 * PostgreSQL it starts on an empty database (an operator's first start there greets as the embedded one); on the
 * embedded database each process gets a data directory of its own unpacked from the run's migrated snapshot (so it
 * greets as a first start, without initdb: the bundle's first start from nothing, its migrations included, is
 * `going-live.test.ts`'s quick start).
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
const postgres = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : null;
const scratch = mkdtempSync(join(tmpdir(), 'pqr-built-'));
/** Where a process keeps its data: the PostgreSQL database, or an embedded data directory of its own. */
async function databaseFor(name: string): Promise<Record<string, string>> {
  if (postgres) return { DATABASE_URL: postgres.url };
  const dataDir = join(scratch, name);
  await seedDataDir(dataDir);
  return { DATA_DIR: dataDir, DATABASE_URL: '' };
}

/** Starts a built entry point on a database of its own and resolves with what it printed once `ready` matches. */
async function startBuilt(entry: string, env: Record<string, string>, ready: RegExp): Promise<{ output: () => string }> {
  const database = await databaseFor(entry.replace(/\W/g, '-'));
  const child = spawn(process.execPath, [entry], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...database, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve({ output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before it was ready:\n${output}`)));
  });
}

let base: string;
let apiKey: string;
let invitation: string;

beforeAll(async () => {
  await buildServer();
  const started = await startBuilt('dist/main.js', { PORT: '0' }, /sk_test_\S+[\s\S]*curl[\s\S]*\/dashboard\/invitations\/\S+\n/);
  base = /listening on (http:\/\/[\d.:]+)/.exec(started.output())![1]!;
  apiKey = /(sk_test_\S+)/.exec(started.output())![1]!;
  invitation = /(http:\/\/\S+\/dashboard\/invitations\/\S+)/.exec(started.output())![1]!;
}, 60_000);

afterAll(async () => {
  await Promise.all(
    children.map((child) => new Promise((resolve) => (child.exitCode === null ? (child.once('exit', resolve), child.kill('SIGKILL')) : resolve(null)))),
  );
  await postgres?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the built server (dist/main.js, as npm start runs it)', () => {
  it('answers the API and serves every file it reads from disk', async () => {
    const created = await fetch(`${base}/Thai/v1/qr-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 15000, currency: 'THB' }),
    });
    expect(created.status).toBe(200);
    const qr = (await created.json()) as { qr_code_id: string; qr_data: string; qr_image_url: string; checkout_url: string };
    // The quick start's sandbox merchant collects to a PromptPay proxy no bank can hold, and its page says so.
    expect(parse(qr.qr_data, true)!.getTagValue('29', '01')).toBe('0066000000000');

    const page = await fetch(qr.checkout_url);
    expect(page.status).toBe(200); // the Mustache template
    const html = await page.text();
    expect(html).toContain('/Thai/pay/assets/fonts/400.css');
    expect(html).toContain('id="test-mode"');
    const image = await fetch(qr.qr_image_url);
    expect(image.headers.get('content-type')).toBe('image/png');
    for (const [path, type] of [
      ['/Thai/pay/assets/checkout.css', 'text/css'],
      ['/Thai/pay/assets/fonts/400.css', 'text/css'], // the font package, resolved from node_modules
      ['/docs', 'text/html'],
      ['/docs/assets/redoc.standalone.js', 'text/javascript'],
      ['/openapi.yaml', 'application/yaml'],
      ['/openapi.json', 'application/json'],
    ]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.headers.get('content-type')).toContain(type);
    }
    const contract = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string };
    expect(contract.openapi).toBe('3.1.0');
  });

  it("prints the sandbox owner's invitation, whose dashboard page renders from the bundle with its assets", async () => {
    expect(invitation.startsWith(`${base}/dashboard/invitations/`)).toBe(true);
    const page = await fetch(invitation);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('owner@example.com');
    expect(html).toContain('name="password"');
    for (const [path, type] of [
      ['/dashboard/assets/dashboard.css', 'text/css'],
      ['/dashboard/assets/dashboard.js', 'text/javascript'],
      ['/dashboard/assets/fonts/400.css', 'text/css'],
    ]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.headers.get('content-type')).toContain(type);
    }
  });

  it('starts the worker from dist/worker.js', { timeout: 120_000 }, async () => {
    const worker = await startBuilt('dist/worker.js', {}, /worker running|error/);
    expect(worker.output()).toContain(`worker running (${postgres ? 'postgres' : 'embedded'} database)`);
  });
});
