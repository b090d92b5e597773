/**
 * Real PostgreSQL servers of our own, on free loopback ports in a temporary directory: a primary and streaming
 * standbys made with pg_basebackup, for the tests of failover. PostgreSQL refuses to run as root, so its programs run
 * as the postgres user when the tests run as root. Binaries: PG_BIN, else PostgreSQL 15's Debian path.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../../scripts/lib/processes.js';

const run = promisify(execFile);
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const asRoot = userInfo().uid === 0;

async function asPostgres(program: string, args: string[]): Promise<void> {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', `${BIN}/${program}`, ...args]] : [`${BIN}/${program}`, args];
  await run(command, argv, { timeout: 120_000 });
}

export interface PostgresServer {
  port: number;
  /** `127.0.0.1:<port>`, as the service names its hosts. */
  label: string;
  url(database?: string): string;
  start(): Promise<void>;
  /** `immediate` is a crash: no shutdown checkpoint, connections cut. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  promote(): Promise<void>;
  /** One statement on a connection of its own (the `postgres` database unless told). */
  query<Row extends pg.QueryResultRow>(sql: string, values?: unknown[], database?: string): Promise<Row[]>;
}

export interface PostgresWorkspace {
  primary(): Promise<PostgresServer>;
  /** A streaming standby of `upstream` (pg_basebackup -R); `reuse` takes over a stopped server's port, after wiping its data. */
  standbyOf(upstream: PostgresServer, reuse?: PostgresServer): Promise<PostgresServer>;
  /** Stops every server (immediately) and removes the directory. */
  close(): Promise<void>;
}

export function postgresWorkspace(): PostgresWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'pqr-pg-'));
  if (asRoot) chownSync(dir, Number(idOfPostgres('-u')), Number(idOfPostgres('-g')));
  const servers: PostgresServer[] = [];
  let count = 0;

  const server = (dataDir: string, port: number): PostgresServer => {
    const pgctl = (...args: string[]) => asPostgres('pg_ctl', ['-D', dataDir, ...args]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60 -c fsync=off -c shared_buffers=16MB`;
    const label = `127.0.0.1:${port}`;
    const made: PostgresServer = {
      port,
      label,
      url: (database = 'postgres') => `postgres://postgres@${label}/${database}`,
      start: () => pgctl('start', '-w', '-t', '120', '-l', `${dataDir}.log`, '-o', options),
      stop: (mode = 'fast') => pgctl('stop', '-w', '-t', '120', '-m', mode),
      promote: () => pgctl('promote', '-w', '-t', '120'),
      async query(sql, values, database) {
        const client = new pg.Client({ connectionString: made.url(database) });
        await client.connect();
        try {
          return (await client.query(sql, values)).rows;
        } finally {
          await client.end();
        }
      },
    };
    servers.push(made);
    return made;
  };

  return {
    async primary() {
      const data = join(dir, `data${++count}`);
      await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
      const made = server(data, await freePort());
      await made.start();
      return made;
    },
    async standbyOf(upstream, reuse) {
      if (reuse) servers.splice(servers.indexOf(reuse), 1);
      const data = join(dir, `data${++count}`);
      await asPostgres('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(upstream.port),
        '-U',
        'postgres',
        '-D',
        data,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ]);
      const made = server(data, reuse?.port ?? (await freePort()));
      await made.start();
      await until(`the standby on ${made.label} streams from ${upstream.label}`, async () => {
        const [row] = await upstream.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'");
        return (row?.n ?? 0) > 0;
      });
      return made;
    },
    async close() {
      for (const made of servers) await made.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function idOfPostgres(flag: '-u' | '-g'): string {
  return execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim();
}

/** Polls `check` every 50 ms until it holds; fails naming `what` after about a minute. */
export async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  for (let tries = 0; tries < 1_200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}
