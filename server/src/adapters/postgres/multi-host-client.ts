import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type pg from 'pg';
import type { DatabaseHost } from './hosts.js';
import { writableHosts } from './writable-host.js';

/** knex's own PostgreSQL client, which this one extends (a deep import knex ships no types for). */
const PostgresClient = createRequire(import.meta.url)('knex/lib/dialects/postgres/index.js') as typeof Knex.Client;

/** read_only_sql_transaction: the host took the write but no longer accepts writes. */
const READ_ONLY = '25006';

type PooledConnection = pg.Client & {
  __knex__disposed?: unknown;
  /** The connection retires once the client's retirement count has moved past this. */
  __retirements?: number;
  /** Which host of DATABASE_URL it is on. */
  __host?: string;
  connection: { on(event: 'errorMessage', listener: (message: { code?: string }) => void): void };
};

export interface MultiHostClient {
  /** Which host of DATABASE_URL a pooled connection is on. */
  primaryOf(connection: unknown): string | null;
}

/**
 * knex's PostgreSQL client for a DATABASE_URL of several hosts: each new pooled connection goes to the host that
 * accepts writes. A connection that dies is dropped by knex itself; one that answers 25006 (its host turned read-only
 * in place) retires every connection made until then, so the next acquire looks for the primary again.
 */
export function multiHostClient(hosts: DatabaseHost[]): typeof Knex.Client {
  const writable = writableHosts(hosts);
  return class extends PostgresClient implements MultiHostClient {
    private retirements = 0;

    async _acquireOnlyConnection(): Promise<PooledConnection> {
      const { client, host } = await writable.connect((candidate) => {
        const connection = candidate as PooledConnection;
        // As knex's own PostgreSQL client marks them: a disposed connection fails validation and is destroyed.
        connection.on('error', (error) => void (connection.__knex__disposed = error));
        connection.on('end', () => void (connection.__knex__disposed ??= 'Connection ended unexpectedly'));
      });
      const connection = client as PooledConnection;
      connection.__retirements = this.retirements;
      connection.__host = host.label;
      connection.connection.on('errorMessage', (message) => {
        if (message.code === READ_ONLY) this.retirements++;
      });
      return connection;
    }

    validateConnection(connection: PooledConnection): Promise<boolean> {
      return Promise.resolve(this.stillCurrent(connection));
    }

    /** `validateConnection` without the promise: how a connection kept between hot statements is checked (./kept-connections.ts). */
    stillCurrent(connection: PooledConnection): boolean {
      return connection.__retirements === this.retirements;
    }

    primaryOf(connection: unknown): string | null {
      return (connection as PooledConnection).__host ?? null;
    }
  };
}
