/**
 * A pg_auto_failover formation in a scratch directory, on loopback ports: a monitor and two data nodes, each kept
 * running by its own `pg_autoctl run` (started as the postgres user, since PostgreSQL refuses root), and stopped and
 * removed when the drill ends. Nothing is installed here: without the Debian packages it says which to install.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../lib/processes.js';
import { MissingPrerequisite, waitFor, type DrillContext } from './harness.js';

const run = promisify(execFile);
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const EXTENSION = join(BIN, '../lib/pgautofailover.so');
export const PACKAGES = ['pg-auto-failover-cli', 'postgresql-15-auto-failover'];

export interface FormationNode {
  name: string;
  port: number;
  pgdata: string;
  /** The postmaster's pid, from postmaster.pid (0 when it is not running). */
  postmasterPid(): number;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

export interface Formation {
  nodes: FormationNode[];
  /** What `pg_autoctl show uri --formation default` prints: every node, libpq's multi-host form. */
  uri: string;
  /** The nodes as the monitor sees them. */
  states(): Promise<NodeState[]>;
  /** The node the monitor holds primary (reported and assigned). */
  primary(): Promise<FormationNode | null>;
  /** `pg_autoctl show settings` (number_sync_standbys, synchronous_standby_names, ...). */
  settings(): Promise<string>;
  log(node: string): string;
}

/** Refuses to start (exit 2 from `npm run drill`) when pg_autoctl or the monitor's extension is missing. */
export async function requirePgAutoFailover(): Promise<void> {
  const found = await run('pg_autoctl', ['--version']).then(
    () => true,
    () => false,
  );
  if (!found || !existsSync(EXTENSION)) {
    throw new MissingPrerequisite(
      `pg_auto_failover is not installed (${found ? `no ${EXTENSION}` : 'no pg_autoctl on PATH'}). Install it with:\n  apt-get install -y ${PACKAGES.join(' ')}`,
    );
  }
}

export async function pgAutoFailoverFormation(ctx: DrillContext, database: string): Promise<Formation> {
  await requirePgAutoFailover();
  const dir = mkdtempSync(join(tmpdir(), 'pqr-drill-paf-'));
  ctx.defer(() => rmSync(dir, { recursive: true, force: true }));
  const root = userInfo().uid === 0;
  if (root) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
  // pg_autoctl keeps its state under XDG directories: all of it in the scratch directory.
  const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share'), XDG_RUNTIME_DIR: join(dir, 'run') };
  const command = (args: string[]): [string, string[]] => {
    const withEnv = ['env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'pg_autoctl', ...args];
    return root ? ['runuser', ['-u', 'postgres', '--', ...withEnv]] : [withEnv[0]!, withEnv.slice(1)];
  };
  const autoctl = async (...args: string[]): Promise<string> => {
    const [program, argv] = command(args);
    try {
      return (await run(program, argv, { timeout: 120_000 })).stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`pg_autoctl ${args.slice(0, 2).join(' ')} failed: ${(e.stderr ?? '').split('\n').slice(-8).join('\n') || e.message}`);
    }
  };
  const logs = new Map<string, string[]>();
  const runs: ChildProcess[] = [];
  const keep = (name: string, pgdata: string) => {
    const [program, argv] = command(['run', '--pgdata', pgdata]);
    const child = spawn(program, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    logs.set(name, lines);
    const collect = (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      if (lines.length > 400) lines.splice(0, lines.length - 400);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    runs.push(child);
    // Last registered, first run: nodes stop before the monitor; pg_autoctl stop waits for its service to end.
    ctx.defer(async () => {
      await autoctl('stop', '--pgdata', pgdata, '--immediate').catch(() => undefined);
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', () => (clearTimeout(timer), resolve()));
      });
    });
  };

  const monitorData = join(dir, 'monitor');
  const monitorPort = await freePort();
  const common = ['--pgctl', join(BIN, 'pg_ctl'), '--auth', 'trust', '--no-ssl', '--hostname', '127.0.0.1'];
  ctx.log(`pg_auto_failover monitor on 127.0.0.1:${monitorPort}`);
  await autoctl('create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), ...common);
  await autoctl('config', 'set', '--pgdata', monitorData, 'postgresql.listen_addresses', '127.0.0.1');
  keep('monitor', monitorData);
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const monitor = new pg.Pool({ connectionString: monitorUrl, max: 1 });
  monitor.on('error', () => undefined);
  ctx.defer(() => monitor.end());
  const ready = await waitFor(
    () =>
      monitor.query('SELECT 1').then(
        () => true,
        () => false,
      ),
    60_000,
    200,
  );
  if (!ready.ok) throw new Error(`the monitor did not start:\n${logs.get('monitor')!.slice(-10).join('\n')}`);

  const nodes: FormationNode[] = [];
  const states = async (): Promise<NodeState[]> =>
    (
      await monitor.query<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }>(
        'SELECT nodename, nodeport, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid',
      )
    ).rows.map((r) => ({ name: r.nodename, port: r.nodeport, reported: r.reportedstate, goal: r.goalstate }));
  for (const name of ['node1', 'node2']) {
    const pgdata = join(dir, name);
    const port = await freePort();
    ctx.log(`${name} on 127.0.0.1:${port}`);
    await autoctl(
      'create',
      'postgres',
      '--pgdata',
      pgdata,
      '--pgport',
      String(port),
      '--listen',
      '127.0.0.1',
      '--dbname',
      database,
      '--name',
      name,
      '--monitor',
      monitorUrl,
      ...common,
    );
    keep(name, pgdata);
    nodes.push({
      name,
      port,
      pgdata,
      postmasterPid: () => {
        const file = join(pgdata, 'postmaster.pid');
        return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : 0;
      },
    });
    const expected = name === 'node1' ? ['single'] : ['primary', 'secondary'];
    const settled = await waitFor(
      async () => {
        const now = await states().catch(() => []);
        return now.length === nodes.length && now.every((s, i) => s.reported === s.goal && s.reported === expected[i]);
      },
      150_000,
      500,
    );
    if (!settled.ok) throw new Error(`${name} did not join the formation: ${JSON.stringify(await states())}\n${logs.get(name)!.slice(-10).join('\n')}`);
  }

  const uri = (await autoctl('show', 'uri', '--pgdata', monitorData, '--formation', 'default')).trim();
  return {
    nodes,
    uri,
    states,
    async primary() {
      const primary = (await states()).find((s) => s.reported === 'primary' && s.goal === 'primary');
      return nodes.find((n) => n.name === primary?.name) ?? null;
    },
    settings: () => autoctl('show', 'settings', '--pgdata', monitorData),
    log: (name) => (logs.get(name) ?? []).join('\n'),
  };
}
