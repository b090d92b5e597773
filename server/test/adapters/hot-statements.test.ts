/**
 * The hot statements (`sendDirect`: payment retrieval, the QR code's one statement) on connections kept between them
 * (src/adapters/postgres/kept-connections.ts) and described once per session (src/adapters/postgres/described-once.ts):
 * the same answers as before, the pool's other users never kept waiting, and a kept connection that ended or whose
 * host turned read-only never used again. The first part runs on the database the suite runs on (PGlite or
 * PostgreSQL); the sessions' part needs PostgreSQL sessions, and runs on DATABASE_URL or the local PostgreSQL.
 */
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseOutage } from '../../src/adapters/http/errors.js';
import { openDatabase, type Database } from '../../src/adapters/postgres/database.js';
import { databaseHosts } from '../../src/adapters/postgres/hosts.js';
import { keptConnectionsOf, keptIdle, type Connection } from '../../src/adapters/postgres/kept-connections.js';
import { multiHostClient } from '../../src/adapters/postgres/multi-host-client.js';
import { poolUse } from '../../src/adapters/postgres/pool-use.js';
import { paymentRepository } from '../../src/adapters/postgres/repositories/payments.js';
import { sendDirect } from '../../src/adapters/postgres/repositories/query.js';
import type { Payment } from '../../src/domain/payment.js';
import { openFreshDatabase, type OpenedDatabase } from '../support/databases.js';
import { paymentRecord } from '../support/payments.js';
import { until } from '../support/postgres-servers.js';
import { freshPostgresDatabase } from '../support/test-server.js';

const at = new Date('2026-11-27T10:00:00.123Z');
const pending = paymentRecord({
  id: 'pay_hot_pending',
  merchantId: 'mer_hot',
  status: 'pending',
  amount: 15000,
  createdAt: at,
  reference: 'INV-1',
  metadata: { order: 'A-1', nested: { n: 1 } },
  expiresAt: new Date(at.getTime() + 900_000),
});
const paid = paymentRecord({
  id: 'pay_hot_paid',
  merchantId: 'mer_hot',
  status: 'succeeded',
  amount: 990,
  createdAt: at,
  completedAt: new Date(at.getTime() + 5_000),
  clientName: 'Somchai',
  card: { brand: 'visa', last4: '4242' },
});

describe('hot statements on the database the suite runs on', () => {
  let opened: OpenedDatabase;
  let knex: Knex;
  beforeAll(async () => {
    opened = await openFreshDatabase();
    knex = opened.db.knex;
    for (const payment of [pending, paid]) await paymentRepository(knex).insert(payment);
  });
  afterAll(async () => {
    await opened?.close(); // would never end if the pool waited for a kept connection
  });

  it('answers the same payment on every execution, the first (described) and the ones after, NULLs, dates and JSON included', async () => {
    const payments = paymentRepository(knex);
    const answers: (Payment | null)[] = [];
    for (let round = 0; round < 4; round++) answers.push(await payments.findById('mer_hot', pending.id), await payments.findById('mer_hot', paid.id));
    for (let round = 0; round < 4; round++) {
      expect(answers[2 * round]).toEqual(pending);
      expect(answers[2 * round + 1]).toEqual(paid);
    }
    expect(await payments.findById('mer_other', pending.id)).toBeNull(); // another merchant's id answers nothing
    expect(await payments.findById('mer_hot', 'pay_missing')).toBeNull();
  });

  it('keeps the connection between hot statements and gives it back as soon as anything else asks the pool', async () => {
    await paymentRepository(knex).findById('mer_hot', pending.id);
    expect(keptIdle(knex)).toBe(1);
    expect(poolUse(knex)).toMatchObject({ used: 0, waiting: 0 }); // a kept connection counts as free
    await knex.raw('select 1'); // would take a second connection (PostgreSQL) or wait (PGlite) if the kept one stayed kept
    expect(keptIdle(knex)).toBe(0);
    await knex.transaction(async (trx) => {
      // Inside a transaction a hot statement runs on the transaction's connection, never a kept one.
      expect((await paymentRepository(trx).findById('mer_hot', paid.id, { lock: true }))?.status).toBe('succeeded');
    });
    expect(keptIdle(knex)).toBe(0);
  });
});

/** The PostgreSQL session a hot statement runs on. */
const backendOf = async (knex: Knex): Promise<number> => (await sendDirect<{ pid: number }>(knex, 'SELECT pg_backend_pid() AS pid', [], 'backend_pid'))[0]!.pid;

describe('kept connections on PostgreSQL sessions', () => {
  let fresh: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('describes a named statement once per session: later executions get no row description', async () => {
    const db: Database = await openDatabase({ kind: 'postgres', url: fresh.url });
    try {
      const payments = paymentRepository(db.knex);
      await payments.insert(paid);
      expect(await payments.findById('mer_hot', paid.id)).toEqual(paid);
      const kept = keptConnectionsOf(db.knex)!;
      const connection = kept.take() as Connection & pg.Client & { connection: pg.Connection };
      let descriptions = 0;
      connection.connection.on('rowDescription', () => descriptions++);
      kept.keep(connection);
      for (let round = 0; round < 3; round++) expect(await payments.findById('mer_hot', paid.id)).toEqual(paid);
      expect(descriptions).toBe(0);
      expect(kept.take()).toBe(connection); // all three ran on the kept connection
      kept.keep(connection);
    } finally {
      await db.close();
    }
  });

  it('never uses a kept connection again once it has ended: the next statement gets a new session', async () => {
    const db: Database = await openDatabase({ kind: 'postgres', url: fresh.url });
    const admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    try {
      const first = await backendOf(db.knex);
      const kept = keptConnectionsOf(db.knex)!;
      const connection = kept.take()!;
      kept.keep(connection);
      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      await until('the kept connection has seen its end', () => Boolean(connection.__knex__disposed));
      const second = await backendOf(db.knex);
      expect(second).not.toBe(first);
      const now = kept.take()!;
      expect(now).not.toBe(connection);
      kept.keep(now); // back, or closing the pool would wait for it
    } finally {
      await admin.end();
      await db.close();
    }
  });

  /**
   * A hot statement that holds its connection until the test lets it go (it waits for an advisory lock the test's own
   * session holds), on a pool of `size` whose connections are opened and kept first, so that what is lent is known.
   */
  async function heldPool(size: number, acquireConnectionTimeout = 5_000) {
    const knex = knexFactory({ client: 'pg', connection: fresh.url, pool: { min: 0, max: size }, acquireConnectionTimeout });
    await Promise.all(Array.from({ length: size }, () => sendDirect(knex, 'SELECT pg_sleep(0.02)', [], 'hot_open')));
    const admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    await admin.query('SELECT pg_advisory_lock(7001)');
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await admin.query('SELECT pg_advisory_unlock(7001)');
      await admin.end();
    };
    return {
      knex,
      held: () => sendDirect(knex, 'SELECT pg_advisory_lock(7001), pg_advisory_unlock(7001)', [], 'hot_held'),
      release,
      close: async () => {
        await release();
        await knex.destroy(); // would never end if a connection stayed lent
      },
    };
  }

  it('hands a connection on to the next hot statement when every pooled one is out: no acquire from the pool for it', async () => {
    const { knex, close } = await heldPool(2);
    try {
      let acquires = 0;
      keptConnectionsOf(knex)!.pool.on('acquireRequest', () => acquires++);
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => sendDirect<{ n: number }>(knex, 'SELECT $1::int AS n FROM pg_sleep(0.02)', [n], 'hot_slow')),
      );
      expect(answers.map((rows) => rows[0]!.n)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(acquires).toBe(0); // the two kept connections, each handed on twice
    } finally {
      await close();
    }
  });

  it("lets the pool's own acquires go first: a knex query waiting there gets the connection a hot statement ends with", async () => {
    const { knex, held, release, close } = await heldPool(1);
    try {
      const finished: string[] = [];
      const first = held().then(() => finished.push('hot, held'));
      const waiting = sendDirect(knex, 'SELECT 2', [], 'hot_next').then(() => finished.push('hot, waiting'));
      const other = knex.raw('SELECT 1').then(() => finished.push('knex'));
      await release();
      await Promise.all([first, waiting, other]);
      expect(finished).toEqual(['hot, held', 'knex', 'hot, waiting']);
    } finally {
      await close();
    }
  });

  it('gives a hot statement waiting the connection the pool frees, without waiting for the hot ones', async () => {
    const { knex, held, release, close } = await heldPool(2);
    try {
      let heldDone = false;
      const first = held().then(() => (heldDone = true)); // one connection
      const trx = await knex.transaction(); // the other
      const waiting = sendDirect<{ n: number }>(knex, 'SELECT 2 AS n', [], 'hot_next');
      await trx.commit();
      expect(await waiting).toEqual([{ n: 2 }]);
      expect(heldDone).toBe(false);
      await release();
      await first;
    } finally {
      await close();
    }
  });

  it("ends a hot statement's wait for a connection at the pool's limit, with the pool's own error (503)", async () => {
    const { knex, held, release, close } = await heldPool(1, 200);
    try {
      const first = held();
      const waiting = sendDirect(knex, 'SELECT 1', [], 'hot_short');
      expect(poolUse(knex)).toMatchObject({ used: 1, free: 0, waiting: 1, max: 1 }); // the pool's gauges count it
      const error = await waiting.then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ name: 'KnexTimeoutError' });
      expect(isDatabaseOutage(error)).toBe(true);
      await release();
      await first; // the statement holding the connection ends as usual
      expect(await sendDirect<{ n: number }>(knex, 'SELECT 2 AS n', [], 'hot_after')).toEqual([{ n: 2 }]);
    } finally {
      await close();
    }
  });

  it('with several hosts, retires a kept connection whose host no longer accepts writes: the next statement looks for the primary again', async () => {
    const hosts = databaseHosts(fresh.url);
    const knex = knexFactory({
      client: multiHostClient([...hosts, ...hosts.map((host) => ({ ...host, label: `${host.label}#2` }))]),
      connection: {},
      pool: { min: 0, max: 3 },
    });
    try {
      await knex.raw('CREATE TABLE IF NOT EXISTS hot_writes (n int)');
      const first = await backendOf(knex);
      expect(await backendOf(knex)).toBe(first);
      expect(keptIdle(knex)).toBe(1);
      // The session turns read-only as a demoted primary's do; the write it is then sent answers 25006.
      await sendDirect(knex, 'SET default_transaction_read_only = on', []);
      await expect(sendDirect(knex, 'INSERT INTO hot_writes VALUES (1)', [], 'hot_write')).rejects.toMatchObject({ code: '25006' });
      expect(keptIdle(knex)).toBe(0);
      const second = await backendOf(knex);
      expect(second).not.toBe(first);
      await sendDirect(knex, 'INSERT INTO hot_writes VALUES (2)', [], 'hot_write'); // the new session takes writes
    } finally {
      await knex.destroy();
    }
  });
});
