/**
 * The operator's CLI as tests run it: the command function the bin calls (`runCli` of src/cli/cli.ts), in the test's
 * own process, with the environment and output of the call its own; so no call starts Node, compiles TypeScript or
 * instantiates PGlite's WebAssembly again. test/cli.test.ts spawns the real `npm run cli` command line, through tsx,
 * on new data directories, so the bin itself stays tested. A new embedded data directory is unpacked from the run's
 * migrated snapshot first (./migrated-start.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli as cli } from '../../src/cli/cli.js';
import { seedDataDir } from './migrated-start.js';

export const REPO_ROOT = new URL('../../..', import.meta.url).pathname;

/** A finished CLI call that exited non-zero, shaped as child_process's error: code, stdout, stderr. */
export class CliFailure extends Error {
  constructor(
    readonly code: number,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`the CLI exited ${code}: ${stderr.trim()}`);
  }
}

/** Runs the CLI with `args`, LOG_LEVEL silent, `env` over the test's own; rejects on a non-zero exit (a CliFailure). */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ stdout: string; stderr: string }> {
  // The embedded database's buffer pool as the test servers have it (./test-server.ts), unless the call names its own.
  const settings: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', EMBEDDED_SHARED_BUFFERS: '16MB', ...env };
  for (const name of Object.keys(settings)) if (settings[name] === undefined) delete settings[name];
  const dataDir = settings.DATA_DIR;
  if (dataDir && !settings.DATABASE_URL && !existsSync(join(dataDir, 'PG_VERSION'))) await seedDataDir(dataDir);
  let stdout = '';
  let stderr = '';
  const code = await cli(args, settings, {
    out: (line) => void (stdout += `${line}\n`),
    err: (line) => void (stderr += `${line}\n`),
    write: (chunk) => void (stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')),
  });
  if (code !== 0) throw new CliFailure(code, stdout, stderr);
  return { stdout, stderr };
}
