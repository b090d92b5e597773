import type { Knex } from 'knex';

/** What a kept connection is asked: a pg client, or the PGlite instance knex-pglite lends. */
export type Connection = { query(...args: unknown[]): Promise<{ rows: unknown[] }>; __knex__disposed?: unknown };

/** The parts of knex's pool (tarn) this file uses. */
interface TarnPool {
  numPendingAcquires(): number;
  on(event: 'acquireRequest' | 'poolDestroyRequest', listener: () => void): void;
}

/** The parts of knex's client this file uses. */
interface PoolClient {
  pool?: TarnPool | null;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  /** knex's own check, run by the pool on each acquire: `true` from knex's PostgreSQL client. */
  validateConnection(connection: unknown): boolean | Promise<boolean>;
  /** The same check without a promise, where the client's own is asynchronous (./multi-host-client.ts: false once its host turned read-only). */
  stillCurrent?(connection: unknown): boolean;
}

/** How long a kept connection may stay out of the pool unused: the pool's idle reaping and its gauges see it after that. */
export const KEEP_MS = 1_000;

/**
 * Connections knex's pool lent to the hot statements (`sendDirect` in ./repositories/query.ts), kept between one
 * statement and the next instead of going back to the pool after each: taking one is a pop from an array, where the
 * pool's acquire costs two pending operations, their timers, an asynchronous validation and several promises (about
 * a sixth of a payment retrieval's allocation, docs/performance.md).
 *
 * The pool still owns every connection, and a connection is always in exactly one place: the pool, one statement,
 * or this list. So nothing else waits for one of them: any acquire from the pool (a knex query, a transaction, a
 * pending acquire of the hot path itself) gives every kept connection back first, synchronously (tarn's
 * `acquireRequest` event comes before the acquire looks for a free connection), a statement that ends while the
 * pool has acquires waiting gives its connection back at once, and what is left is given back after KEEP_MS. A
 * connection is used again only if knex's own checks would pass it on an acquire (not disposed: its socket ended or
 * failed; `validateConnection`: the multi-host client's retirement after a host turned read-only); one that fails
 * them goes back to the pool, which destroys it on its next acquire, as before.
 */
export class KeptConnections {
  private readonly idle: Connection[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(
    private readonly client: PoolClient,
    readonly pool: TarnPool,
  ) {
    pool.on('acquireRequest', this.giveBack);
    pool.on('poolDestroyRequest', () => {
      this.closing = true;
      this.giveBack();
    });
  }

  /** Kept connections not in use now (the pool counts them as used). */
  get size(): number {
    return this.idle.length;
  }

  /** A kept connection that knex's checks pass, or undefined: acquire one from the pool then. */
  take(): Connection | undefined {
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (this.usable(connection)) return connection;
      void this.client.releaseConnection(connection);
    }
    return undefined;
  }

  /** Keeps a connection a statement is done with, or gives it back to the pool when anyone waits there or it is unusable. */
  keep(connection: Connection): void {
    if (this.closing || this.pool.numPendingAcquires() > 0 || !this.usable(connection)) {
      void this.client.releaseConnection(connection);
      return;
    }
    this.idle.push(connection);
    this.timer ??= setTimeout(this.giveBack, KEEP_MS).unref();
  }

  /** Every kept connection back to the pool. */
  readonly giveBack = (): void => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) void this.client.releaseConnection(connection);
  };

  private usable(connection: Connection): boolean {
    if (connection.__knex__disposed) return false;
    return this.client.stillCurrent ? this.client.stillCurrent(connection) : this.client.validateConnection(connection) === true;
  }
}

const kept = new WeakMap<object, KeptConnections>();

/** The kept connections of knex's pool now (a pool made anew after `destroy` gets its own); null: a transaction's or no pool. */
export function keptConnectionsOf(db: Knex | Knex.Transaction): KeptConnections | null {
  if ((db as Knex.Transaction).isTransaction) return null;
  const client = db.client as PoolClient;
  const pool = client.pool;
  if (!pool) return null;
  let connections = kept.get(client);
  if (connections?.pool !== pool) {
    connections = new KeptConnections(client, pool);
    kept.set(client, connections);
  }
  return connections;
}

/** How many of a knex instance's pooled connections are kept and unused right now (0 when none: no statement yet). */
export function keptIdle(knex: Knex): number {
  const connections = kept.get(knex.client as object);
  return connections && connections.pool === (knex.client as PoolClient).pool ? connections.size : 0;
}
