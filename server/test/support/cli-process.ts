/**
 * The operator's CLI as a process, as tests run it: `node` on the bundle the run's global setup built from
 * src/cli/cli.ts (./global-setup.ts), so no call compiles TypeScript first; without the global setup, through tsx as
 * `npm run cli` runs it. test/cli.test.ts spawns the real `npm run cli` command line, through tsx, on a new data directory.
 * A new embedded data directory is unpacked from the run's migrated snapshot first (./migrated-start.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { seedDataDir } from './migrated-start.js';

const run = promisify(execFile);
export const REPO_ROOT = new URL('../../..', import.meta.url).pathname;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI bundled for this run (an absolute path). */
    cliBundle: string;
  }
}

/** Runs the CLI with `args` in the repository root, LOG_LEVEL silent, `env` over the test's own; rejects on a non-zero exit (with code, stdout, stderr). */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ stdout: string; stderr: string }> {
  const dataDir = env.DATA_DIR;
  if (dataDir && !{ ...process.env, ...env }.DATABASE_URL && !existsSync(join(dataDir, 'PG_VERSION'))) await seedDataDir(dataDir);
  const bundle = inject('cliBundle');
  const entry = bundle ? [bundle] : ['--import', 'tsx', 'server/src/cli/cli.ts'];
  return run('node', [...entry, ...args], { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
}
