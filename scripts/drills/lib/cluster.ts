/**
 * A PostgreSQL server the database drill may stop and start. By default a private throwaway cluster (initdb in a
 * temporary directory, its own port on 127.0.0.1), so that the engineers' tests on the shared server are not cut off;
 * DRILL_PG=shared restarts the shared cluster itself (pg_ctlcluster 15 main) and makes sure it runs again at the end.
 */
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../lib/processes.js';
import type { DrillContext } from './harness.js';

const run = promisify(execFile);
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Cluster {
  /** Admin URL (database postgres) of this cluster. */
  adminUrl: string;
  description: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

async function asPostgres(command: string, args: string[]): Promise<string> {
  const runAs = userInfo().uid === 0 ? (['runuser', ['-u', 'postgres', '--', command, ...args]] as const) : ([command, args] as const);
  const { stdout } = await run(runAs[0], [...runAs[1]], { timeout: 60_000 });
  return stdout;
}

export async function privateCluster(ctx: DrillContext): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'pqr-drill-pg-'));
  ctx.defer(() => rmSync(dir, { recursive: true, force: true }));
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  await asPostgres(`${BIN}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const pgctl = (...args: string[]) => asPostgres(`${BIN}/pg_ctl`, ['-D', data, ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
  const cluster: Cluster = {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    description: `private cluster on 127.0.0.1:${port}`,
    stop: async () => void (await pgctl('stop', '-m', 'fast', '-w')),
    start: async () => void (await pgctl('start', '-w', '-l', join(dir, 'log'), '-o', options)),
  };
  await cluster.start();
  ctx.defer(() => pgctl('stop', '-m', 'immediate', '-w').catch(() => undefined));
  return cluster;
}

export async function sharedCluster(ctx: DrillContext, adminUrl: string): Promise<Cluster> {
  const ctl = (action: string, ...extra: string[]) => run('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', action, ...extra], { timeout: 60_000 });
  const online = async () => /online/.test((await run('pg_lsclusters', ['15', 'main'])).stdout);
  ctx.defer(async () => {
    if (!(await online())) await ctl('start');
  });
  return {
    adminUrl,
    description: 'shared cluster 15/main (pg_ctlcluster)',
    stop: async () => void (await ctl('stop')),
    start: async () => void (await ctl('start')),
  };
}
