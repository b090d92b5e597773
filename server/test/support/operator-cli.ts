import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { PayoutAccount } from '../../src/domain/payout-account.js';

const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface OperatorCli {
  /** DATA_DIR (embedded) or DATABASE_URL (a database of its own on PostgreSQL): what the CLI runs against. */
  env: Record<string, string>;
  /** `npm run cli -- ...` as a process; rejects on a non-zero exit. */
  run(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** The same, resolving with the exit code whatever it is. */
  exit(args: string[], env?: Record<string, string>): Promise<CliResult>;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

/** The operator's CLI against a private data directory, or a scratch PostgreSQL database when DATABASE_URL is set (unless `embedded`). */
export async function operatorCli(prefix: string, options: { embedded?: boolean } = {}): Promise<OperatorCli> {
  const env: Record<string, string> = { DATA_DIR: join(mkdtempSync(join(tmpdir(), prefix)), 'pglite'), DATABASE_URL: '' };
  const scratch = `pqr_test_cli_${randomBytes(5).toString('hex')}`;
  const postgres = Boolean(process.env.DATABASE_URL) && !options.embedded;
  if (postgres) {
    await admin(`CREATE DATABASE ${scratch}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${scratch}`;
    env.DATABASE_URL = url.toString();
  }
  const runCli = async (args: string[], extra: Record<string, string> = {}): Promise<CliResult> => {
    const { stdout, stderr } = await run('node', ['--import', 'tsx', 'server/src/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env, ...extra },
    });
    return { code: 0, stdout, stderr };
  };
  return {
    env,
    run: runCli,
    exit: (args, extra) =>
      runCli(args, extra).catch((error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      })),
    async drop() {
      if (postgres) await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    },
  };
}

/** `merchants payout-account`: the operator's arguments that set where the merchant's withdrawals go. */
export const payoutAccountArgs = (merchantId: string, { bankCode, accountNumber, accountName }: PayoutAccount): string[] => [
  'merchants',
  'payout-account',
  '--merchant',
  merchantId,
  '--bank-code',
  bankCode,
  '--account-number',
  accountNumber,
  '--account-name',
  accountName,
];
