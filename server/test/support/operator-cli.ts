import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.js';
import { createTestDatabase } from './migrated-start.js';
import type { PayoutAccount } from '../../src/domain/payout-account.js';

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
  /** Drops its database, and removes its data directory. */
  drop(): Promise<void>;
}

/** The operator's CLI against a private data directory, or a scratch PostgreSQL database when DATABASE_URL is set (unless `embedded`). */
export async function operatorCli(prefix: string, options: { embedded?: boolean } = {}): Promise<OperatorCli> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env: Record<string, string> = { DATA_DIR: join(dir, 'pglite'), DATABASE_URL: '' };
  const postgres = process.env.DATABASE_URL && !options.embedded ? await createTestDatabase(process.env.DATABASE_URL, { migrated: true, kind: 'cli' }) : null;
  if (postgres) env.DATABASE_URL = postgres.url;
  const call = async (args: string[], extra: Record<string, string> = {}): Promise<CliResult> => {
    const { stdout, stderr } = await runCli(args, { ...env, ...extra });
    return { code: 0, stdout, stderr };
  };
  return {
    env,
    run: call,
    exit: (args, extra) =>
      call(args, extra).catch((error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      })),
    async drop() {
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
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
