import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../build.js';

/**
 * A start that fails says why, in one line, and exits non-zero; it never prints a password back, never a stack trace.
 * The server runs as `npm start` runs it: a process of its own, from the bundle (the build is part of what is tested).
 */
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = `${SERVER_DIR}dist/main.js`;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBuilt(env: Record<string, string>): Promise<Exit> {
  const child = spawn(process.execPath, [BUNDLE], {
    cwd: SERVER_DIR,
    env: { ...process.env, DATA_DIR: 'memory://', DATABASE_URL: '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** A loopback port nothing listens on: taken, then let go. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function expectOneLineFailure(exit: Exit, says: RegExp): void {
  expect(exit.code).toBe(1);
  const lines = exit.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(says);
  expect(exit.stderr + exit.stdout).not.toMatch(/\n\s+at /); // no stack trace
  expect(exit.stderr + exit.stdout).not.toContain('s3cretpw');
}

beforeAll(() => buildServer(), 60_000);

describe('several builds at once (five `npm start` from one checkout)', () => {
  it('never leave a half-written bundle for a start to load', async () => {
    const reads: string[] = [];
    let building = true;
    const builds = Promise.all([buildServer(), buildServer(), buildServer()]).finally(() => (building = false));
    // Read the bundle as a starting process would, as often as the builds leave time for.
    while (building) {
      reads.push(readFileSync(BUNDLE, 'utf8'));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await builds;
    // Every build writes the same bytes: any read that differs from them caught a file half-written.
    const whole = readFileSync(BUNDLE, 'utf8');
    expect(reads.length).toBeGreaterThan(1);
    const halfWritten = reads.filter((text) => text !== whole).map((text) => `${text.length} of ${whole.length} characters`);
    expect({ reads: reads.length, halfWritten: halfWritten.length, first: halfWritten.slice(0, 3) }).toEqual({
      reads: reads.length,
      halfWritten: 0,
      first: [],
    });
    const exit = await runBuilt({ PORT: 'eighty' });
    expectOneLineFailure(exit, /^error: PORT: 'eighty' must be an integer/); // the whole bundle ran, up to its start
  }, 120_000);
});

describe('a start that fails', () => {
  it('on a setting says which, with its password masked, and exits 1', async () => {
    const exit = await runBuilt({ DATABASE_URL: 'mysql://root:s3cretpw@127.0.0.1:3306/payments' });
    expectOneLineFailure(exit, /^error: DATABASE_URL: 'mysql:\/\/root:\*\*\*@127\.0\.0\.1:3306\/payments' must be a postgres: or postgresql: URL\.$/);
  });

  it('on a database out of reach names DATABASE_URL in one line, masked, and exits 1', async () => {
    const port = await unusedPort();
    const exit = await runBuilt({ DATABASE_URL: `postgres://root:s3cretpw@127.0.0.1:${port}/payments` });
    expectOneLineFailure(
      exit,
      new RegExp(`^error: DATABASE_URL: the database at postgres://root:\\*\\*\\*@127\\.0\\.0\\.1:${port}/payments cannot be reached \\(.+\\)\\.$`),
    );
  });
});
