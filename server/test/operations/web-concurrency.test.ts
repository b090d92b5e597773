import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnNode, waitForHttp, type Child } from '../../../scripts/lib/processes.js';
import { buildServer } from '../../build.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { freshPostgresDatabase } from '../support/test-server.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const postgresUrl = process.env.DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The server processes the primary keeps running (its children). */
const serversOf = (primary: Child): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(primary.process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort();
  } catch {
    return []; // pgrep exits 1 when there is none
  }
};

async function until<T>(what: string, read: () => T, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 2_400; tries++) {
    const value = read();
    if (done(value)) return value;
    await sleep(50);
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe(postgresUrl ? 'WEB_CONCURRENCY on PostgreSQL' : 'WEB_CONCURRENCY on the embedded database', () => {
  if (!postgresUrl) {
    it('is refused: the embedded database belongs to one process', () => {
      expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(ConfigError);
      expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(/needs DATABASE_URL/);
      expect(loadConfig({}).webConcurrency).toBe(1);
    });
    return;
  }

  it('runs N server processes on one port, replaces one that dies, and drains all on SIGTERM', async () => {
    await buildServer();
    const database = await freshPostgresDatabase(postgresUrl);
    cleanups.push(() => database.drop());
    const port = await freePort();
    const primary = spawnNode('cluster', 'dist/main.js', {
      cwd: SERVER_DIR,
      env: { DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '3', LOG_LEVEL: 'info' },
    });
    cleanups.push(() => primary.stop(1_000));
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, primary);

    const first = await until(
      'three server processes',
      () => serversOf(primary),
      (pids) => pids.length === 3,
    );
    const victim = first[0]!;
    process.kill(victim, 'SIGKILL');
    const replaced = await until(
      'a replacement',
      () => serversOf(primary),
      (pids) => pids.length === 3 && !pids.includes(victim),
    );
    expect(replaced.filter((pid) => first.includes(pid))).toHaveLength(2);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, primary);

    primary.process.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => primary.process.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
    expect(replaced.filter((pid) => isAlive(pid))).toEqual([]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
