/**
 * DATABASE_URL listing several hosts, against real PostgreSQL servers of this test's own (a primary and a streaming
 * standby on loopback ports): the service writes only where writes are taken, answers 503 while no host takes them,
 * follows a promotion, and never answers 2xx for a write whose COMMIT was not confirmed. Whatever DATABASE_URL the
 * suite runs with, these servers are the test's.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../src/adapters/postgres/listen.js';
import { apiClient, expectEnvelope, type ApiClient, type ApiResponse } from '../support/http.js';
import { postgresWorkspace, until, type PostgresServer, type PostgresWorkspace } from '../support/postgres-servers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const DATABASE = 'pqr_failover';
const SLOW = 180_000; // servers are made and promoted on a shared machine

let workspace: PostgresWorkspace;
let first: PostgresServer; // the primary at the start
let second: PostgresServer; // its standby, listed FIRST in DATABASE_URL
let service: TestServer;
let api: ApiClient;
/** A LISTEN connection of the adapter's, on the same URL: what it heard, and how often it (re)started listening. */
const heard: string[] = [];
let listening = 0;
let stopListening: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  workspace = postgresWorkspace();
  first = await workspace.primary();
  await first.query(`CREATE DATABASE ${DATABASE}`);
  second = await workspace.standbyOf(first);
  const url = `postgres://postgres@${second.label},${first.label}/${DATABASE}?application_name=pqr-failover-test`;
  service = await startTestServer({ env: { DATABASE_URL: url } });
  api = apiClient(service.url, await service.merchant({ payoutAccount: { bankCode: '014', accountNumber: '1234567890', accountName: 'Failover shop' } }));
  stopListening = await listen(url, 'failover_test', {
    onNotify: (payload) => heard.push(payload),
    onListening: () => void listening++,
    onError: () => undefined,
  });
}, SLOW);

afterAll(async () => {
  // The servers first: a request still waiting on one of them would keep the service from stopping.
  await workspace?.close();
  await stopListening();
  await service?.stop();
}, SLOW);

const newReference = (): string => `ha-${randomBytes(8).toString('hex')}`;

const newQrCode = (reference = newReference()): Promise<ApiResponse> =>
  api.post('/Thai/v1/qr-codes', { amount: 15000, currency: 'THB', reference }, { idempotencyKey: reference });

const paymentsOn = async (server: PostgresServer, reference: string): Promise<number> =>
  (await server.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE reference = $1', [reference], DATABASE))[0]!.n;

/**
 * The service's backend waiting for the standby to confirm the COMMIT of `statement` (a LIKE pattern of the statement
 * it ran last), once there is one: the server's own jobs wait too when they write (the count fold deletes the count
 * changes a QR code wrote), and cutting one of theirs instead would leave the request waiting.
 */
async function backendWaitingForCommit(server: PostgresServer, database: string, statement: string): Promise<number> {
  let pid = 0;
  await until(`a COMMIT of ${statement} waiting for synchronous replication in ${database}`, async () => {
    const rows = await server.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event = 'SyncRep' AND query LIKE $2", [
      database,
      statement,
    ]);
    pid = rows[0]?.pid ?? 0;
    return pid !== 0;
  });
  return pid;
}

/**
 * Makes every COMMIT on `server` wait for a synchronous standby that never comes (or stop waiting), and returns once
 * that is in force: a probe transaction of our own is seen waiting (then cut off), or commits again.
 */
async function commitsWaitForNobody(server: PostgresServer, wait: boolean): Promise<void> {
  // A COMMIT waits only when its transaction wrote WAL: the probe inserts a row.
  await server.query('CREATE TABLE IF NOT EXISTS commit_probe (at timestamptz)');
  await server.query(wait ? "ALTER SYSTEM SET synchronous_standby_names = 'pqr_nobody'" : 'ALTER SYSTEM RESET synchronous_standby_names');
  await server.query('SELECT pg_reload_conf()');
  if (!wait) return void (await server.query('INSERT INTO commit_probe VALUES (now())')); // returns once waiters are released
  await until('commits to wait for synchronous replication', async () => {
    const probe = new pg.Client({ connectionString: server.url() });
    probe.on('error', () => undefined);
    await probe.connect();
    const { pid } = (await probe.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
    let done = false;
    const committed = probe.query('INSERT INTO commit_probe VALUES (now())').then(
      () => void (done = true),
      () => void (done = true),
    );
    let waiting = false;
    await until('the probe to commit or to wait', async () => {
      waiting = (await server.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'SyncRep'", [pid])).length === 1;
      return done || waiting;
    });
    if (waiting) await server.query('SELECT pg_terminate_backend($1)', [pid]);
    await committed;
    await probe.end().catch(() => undefined);
    return waiting;
  });
}

describe('DATABASE_URL with several hosts (a primary and its streaming standby)', () => {
  it('skips the standby listed first and writes to the primary, which /readyz names', async () => {
    const reference = newReference();
    const created = await newQrCode(reference);
    expect(created.status, created.text).toBe(200);
    expect(await paymentsOn(first, reference)).toBe(1);
    expect((await api.get('/readyz')).body).toEqual({ status: 'ready', primary: first.label });
    await first.query("NOTIFY failover_test, 'on the primary'", [], DATABASE);
    await until('the NOTIFY to be heard', () => heard.includes('on the primary'));
  });

  it(
    'never answers 2xx for a write whose COMMIT was not confirmed, and a retry with the same key applies it once',
    async () => {
      const payable = await newQrCode();
      expect(payable.status).toBe(200);
      await commitsWaitForNobody(first, true);
      try {
        // The one-statement QR write, and a completion in a transaction: each COMMIT waits, then its connection is cut.
        const reference = newReference();
        const created = newQrCode(reference);
        await first.query('SELECT pg_terminate_backend($1)', [await backendWaitingForCommit(first, DATABASE, 'WITH gate AS (%')]); // the QR code's one statement
        expectEnvelope(await created, 503, 'service_unavailable');

        const completed = api.post(`/Thai/v1/test/payments/${payable.body.payment_id}/succeed`, undefined, { idempotencyKey: `succeed-${reference}` });
        await first.query('SELECT pg_terminate_backend($1)', [await backendWaitingForCommit(first, DATABASE, 'COMMIT%')]); // its transaction's
        expectEnvelope(await completed, 503, 'service_unavailable');

        await commitsWaitForNobody(first, false);
        // Committed locally although not confirmed: the retry finds the first attempt's work, and repeats nothing.
        const retried = await newQrCode(reference);
        expect(retried.status).toBe(200);
        expect(await paymentsOn(first, reference)).toBe(1);
        const completedAgain = await api.post(`/Thai/v1/test/payments/${payable.body.payment_id}/succeed`, undefined, {
          idempotencyKey: `succeed-${reference}`,
        });
        expect(completedAgain.status).toBe(200);
        const entries = await first.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM balance_transactions WHERE source_id = $1 AND type = 'payment'",
          [payable.body.payment_id],
          DATABASE,
        );
        expect(entries[0]!.n).toBe(1);
      } finally {
        await commitsWaitForNobody(first, false);
      }
    },
    SLOW,
  );

  it(
    'answers 503 while no host takes writes, then follows the promoted standby',
    async () => {
      const before = await newQrCode();
      expect(before.status).toBe(200);
      await first.stop('immediate');

      const refused: string[] = [];
      for (let i = 0; i < 3; i++) {
        const reference = newReference();
        expectEnvelope(await newQrCode(reference), 503, 'service_unavailable');
        refused.push(reference);
      }
      expectEnvelope(await api.get('/readyz'), 503, 'service_unavailable');

      await second.promote();
      const after = await newQrCode();
      expect(after.status).toBe(200);
      expect((await api.get('/readyz')).body).toEqual({ status: 'ready', primary: second.label });
      expect((await api.get(`/Thai/v1/payments/${before.body.payment_id}`)).status).toBe(200);
      for (const reference of refused) expect(await paymentsOn(second, reference)).toBe(0);
      await until('LISTEN to start again on the new primary', () => listening === 2);
      await second.query("NOTIFY failover_test, 'on the new primary'", [], DATABASE);
      await until('the NOTIFY to be heard', () => heard.includes('on the new primary'));
    },
    SLOW,
  );

  it(
    'answers 503 when its primary turns read-only in place, and moves at once to a standby promoted meanwhile',
    async () => {
      // The old primary comes back as the standby of the new one.
      first = await workspace.standbyOf(second, first);
      // Several pooled connections to the primary, all of which must be given up after the first read-only answer.
      await until('two pooled connections to the primary', async () => {
        await Promise.all(Array.from({ length: 6 }, () => api.get('/Thai/v1/payments?limit=1')));
        const [row] = await second.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'pqr-failover-test'",
          [DATABASE],
        );
        return (row?.n ?? 0) >= 2;
      });

      await second.query('ALTER SYSTEM SET default_transaction_read_only = on');
      await second.query('SELECT pg_reload_conf()');
      await until(
        'new sessions to be read-only',
        async () => (await second.query<{ r: string }>("SELECT current_setting('default_transaction_read_only') AS r"))[0]?.r === 'on',
      );
      const reference = newReference();
      expectEnvelope(await newQrCode(reference), 503, 'service_unavailable');

      await first.promote();
      const movedReference = newReference();
      expect((await newQrCode(movedReference)).status).toBe(200);
      expect(await paymentsOn(first, movedReference)).toBe(1);
      expect((await api.get('/readyz')).body).toEqual({ status: 'ready', primary: first.label });
    },
    SLOW,
  );
});
