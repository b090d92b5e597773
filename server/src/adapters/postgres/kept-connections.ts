import knex, { type Knex } from 'knex';

/** What a kept connection is asked: a pg client, or the PGlite instance knex-pglite lends. */
export type Connection = { query(...args: unknown[]): Promise<{ rows: unknown[] }>; __knex__disposed?: unknown };

/** The parts of knex's pool (tarn) this file uses. */
interface TarnPool {
  readonly max: number;
  numUsed(): number;
  numFree(): number;
  numPendingCreates(): number;
  numPendingAcquires(): number;
  on(event: 'acquireRequest' | 'poolDestroyRequest' | 'release', listener: () => void): void;
}

/** The parts of knex's client this file uses. */
interface PoolClient {
  pool?: TarnPool | null;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  config: { acquireConnectionTimeout?: number };
  /** knex's own check, run by the pool on each acquire: `true` from knex's PostgreSQL client. */
  validateConnection(connection: unknown): boolean | Promise<boolean>;
  /** The same check without a promise, where the client's own is asynchronous (./multi-host-client.ts: false once its host turned read-only). */
  stillCurrent?(connection: unknown): boolean;
}

/** How long a kept connection may stay out of the pool unused: the pool's idle reaping and its gauges see it after that. */
export const KEEP_MS = 1_000;

/** knex's own limit on waiting for a pooled connection, when its configuration names none. */
const KNEX_ACQUIRE_TIMEOUT_MS = 60_000;

/** A hot statement waiting for the connection another one ends with, since when (ms). */
interface Waiter {
  resolve(connection: Connection): void;
  reject(error: unknown): void;
  since: number;
}

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
 * pool has acquires waiting gives its connection back at once, one that ends while hot statements wait for a
 * connection (the pool's all out) hands it to the first of them, and what is left is given back after KEEP_MS. A
 * connection is used again only if knex's own checks would pass it on an acquire (not disposed: its socket ended or
 * failed; `validateConnection`: the multi-host client's retirement after a host turned read-only); one that fails
 * them goes back to the pool, which destroys it on its next acquire, as before.
 */
export class KeptConnections {
  private readonly idle: Connection[] = [];
  /** Connections lent to hot statements now. */
  private readonly lent = new Set<Connection>();
  /** Acquires from the pool under way for hot statements: each will be lent, then handed on or kept. */
  private acquiring = 0;
  /** Hot statements waiting for a lent connection, first come first served. */
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private waitTimer: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(
    private readonly client: PoolClient,
    readonly pool: TarnPool,
  ) {
    pool.on('acquireRequest', this.giveBack);
    // A connection the pool's other users free, that no acquire of theirs waits for: the first hot statement waiting asks for it.
    pool.on('release', () => {
      const waiter = this.waiting.length > 0 && this.pool.numPendingAcquires() === 0 ? this.waiting.shift() : undefined;
      if (waiter) this.fromPool().then(waiter.resolve, waiter.reject);
    });
    pool.on('poolDestroyRequest', () => {
      this.closing = true;
      this.giveBack();
      this.waitersToPool();
    });
  }

  /** Kept connections not in use now (the pool counts them as used). */
  get size(): number {
    return this.idle.length;
  }

  /** Hot statements waiting for a connection now (the pool does not count them). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * A connection for one hot statement: a kept one; else, when every connection the pool may open is out and hot
   * statements hold some, the first of those to end (`keep` hands it on, as pg's own pool does: no pending operation,
   * timer or validation of the pool's per statement); else one from the pool. A wait for one is limited as the pool's
   * is (knex's `acquireConnectionTimeout`), and ends the same way (KnexTimeoutError: 503).
   */
  lend(): Connection | Promise<Connection> {
    const kept = this.take();
    if (kept) return this.lentOut(kept);
    if (this.lent.size > 0 && this.poolFull()) {
      return new Promise((resolve, reject) => {
        this.waiting.push({ resolve, reject, since: Date.now() });
        this.waitTimer ??= setTimeout(this.endLongWaits, this.acquireTimeoutMs());
      });
    }
    return this.fromPool();
  }

  /** A kept connection that knex's checks pass, or undefined: acquire one from the pool then. */
  take(): Connection | undefined {
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (this.usable(connection)) return connection;
      void this.client.releaseConnection(connection);
    }
    return undefined;
  }

  /**
   * Takes back a connection a statement is done with: to the pool when anyone waits there (they come first) or it is
   * unusable; else to the next hot statement waiting; else kept. When no hot statement is left to hand one on, those
   * waiting ask the pool.
   */
  keep(connection: Connection): void {
    this.lent.delete(connection);
    if (this.closing || this.pool.numPendingAcquires() > 0 || !this.usable(connection)) {
      void this.client.releaseConnection(connection);
      if (this.lent.size === 0 && this.acquiring === 0) this.waitersToPool();
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      next.resolve(this.lentOut(connection));
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

  private lentOut(connection: Connection): Connection {
    this.lent.add(connection);
    return connection;
  }

  private async fromPool(): Promise<Connection> {
    this.acquiring++;
    try {
      const connection = (await this.client.acquireConnection()) as Connection;
      this.acquiring--;
      return this.lentOut(connection);
    } catch (error) {
      this.acquiring--;
      if (this.lent.size === 0 && this.acquiring === 0) this.waitersToPool();
      throw error;
    }
  }

  private waitersToPool(): void {
    for (let waiter = this.waiting.shift(); waiter !== undefined; waiter = this.waiting.shift()) this.fromPool().then(waiter.resolve, waiter.reject);
  }

  /**
   * Every connection the pool may open is open and in use: an acquire now would wait, and the pool opens none. (While
   * one is being opened, an acquire goes to the pool: the new connection goes to the pool's waiting acquires.)
   */
  private poolFull(): boolean {
    return this.pool.numFree() === 0 && this.pool.numPendingCreates() === 0 && this.pool.numUsed() >= this.pool.max;
  }

  private acquireTimeoutMs(): number {
    return this.client.config.acquireConnectionTimeout ?? KNEX_ACQUIRE_TIMEOUT_MS;
  }

  /** Ends the waits that reached the pool's limit, with the pool's own error, and looks again when the next one will. */
  private readonly endLongWaits = (): void => {
    this.waitTimer = null;
    const limit = this.acquireTimeoutMs();
    const now = Date.now();
    while (this.waiting[0] && now - this.waiting[0].since >= limit) {
      this.waiting.shift()!.reject(new knex.KnexTimeoutError('Knex: Timeout acquiring a connection. The pool is probably full.'));
    }
    if (this.waiting[0]) this.waitTimer = setTimeout(this.endLongWaits, this.waiting[0].since + limit - now);
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

/** The kept connections of a knex instance's pool now, if a hot statement has run on it. */
function keptNow(knex: Knex): KeptConnections | undefined {
  const connections = kept.get(knex.client as object);
  return connections && connections.pool === (knex.client as PoolClient).pool ? connections : undefined;
}

/** How many of a knex instance's pooled connections are kept and unused right now (0 when none: no statement yet). */
export const keptIdle = (knex: Knex): number => keptNow(knex)?.size ?? 0;

/** How many hot statements wait for a connection right now, beside the pool's own waiting acquires. */
export const keptWaiting = (knex: Knex): number => keptNow(knex)?.waitingCount ?? 0;
