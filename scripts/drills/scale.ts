/**
 * scale: one merchant's transaction history grown to 10k, 100k and 1,000,000 rows (--short: 10k and 100k), bulk
 * inserted with generate_series in a scratch database (plus 10% as many rows for a second merchant), with a realistic
 * mix: 90% payment transactions (succeeded 2/3, failed 2/9, pending and refunded 1/18 each; their payments and the
 * refunds exist too), 10% refund transactions; dates over two years, pending ones in the last minutes. After each
 * stage VACUUM ANALYZE (what autovacuum would do), then GET /Thai/v1/transactions through a server child, 30 timed
 * requests per query after 3 warm-ups: first page, a deep page (offset 500,000, or half the rows), and each filter.
 * Target (checked): first page median < 50 ms at the largest size. A payment's transaction is read from its payment
 * (migration 0030), so the history is payments and refunds' transaction rows. The events outbox grows alongside to the same
 * sizes, and GET /Thai/v1/events is timed the same way (scale-events.ts), with the same target for its first page.
 * The merchant's ledger grows alongside to the same number of entries (0.1% still pending in their settlement delay),
 * and GET /balance and the first page of GET /balance/transactions are timed too (target: p50 < 50 ms). The dashboard's
 * Payments page (HTML, signed in as an owner) is timed over the same payments: its first page and a search by
 * reference (target: p50 < 50 ms).
 */
import type pg from 'pg';
import { ms, percentile, type Drill } from './lib/harness.js';
import { dashboardCookie } from './lib/dashboard-session.js';
import { call, createTestMerchant, inspect, scratchDatabase, startServer } from './lib/service.js';
import { EVENT_QUERIES, EVENTS_FIRST_PAGE, growEvents } from './scale-events.js';

const TARGET_MS = 50;
const SAMPLES = 30;
const WARMUP = 3;

/**
 * The transactions a seeding statement added, counted into the counts table at once. The row triggers (on payments
 * and on refunds' transactions) would append one count change per transaction for the servers' fold to sum later
 * (migrations 0012, 0030): the drill turns them off while it seeds and counts each batch itself, one counter row per
 * batch (as scale-events.ts does for events).
 */
const COUNT_ADDED = `INSERT INTO transaction_counts SELECT merchant_id, type, status, 0, count(*) FROM added GROUP BY 1, 2, 3
     ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n + excluded.n`;

/** Payment rows with indices [from, to) and their transactions; refunds [rFrom, rTo) of earlier payments. */
async function grow(pg: pg.Client, merchantId: string, tag: string, from: number, to: number, rFrom: number, rTo: number): Promise<void> {
  await pg.query('ALTER TABLE transactions DISABLE TRIGGER transactions_count');
  await pg.query('ALTER TABLE payments DISABLE TRIGGER payments_transaction_counted');
  try {
    await insertTransactions(pg, merchantId, tag, from, to, rFrom, rTo);
  } finally {
    await pg.query('ALTER TABLE transactions ENABLE TRIGGER transactions_count');
    await pg.query('ALTER TABLE payments ENABLE TRIGGER payments_transaction_counted');
  }
}

async function insertTransactions(pg: pg.Client, merchantId: string, tag: string, from: number, to: number, rFrom: number, rTo: number): Promise<void> {
  await pg.query(
    `WITH src AS (
       SELECT i, i % 18 AS b, 100 + floor(random() * 5000000)::int AS amount,
              CASE WHEN i % 18 = 12 THEN now() - random() * interval '10 minutes' ELSE now() - random() * interval '730 days' END AS ts
       FROM generate_series($3::int, $4::int - 1) AS i
     ), p AS (
       INSERT INTO payments (id, merchant_id, status, amount, currency, reference, metadata, refunded_amount, created_at, updated_at, completed_at, expires_at)
       SELECT 'pay_' || md5($2 || 'p' || i), $1, s.status, amount, 'THB', 'INV-' || i, '{"order_id":"x"}'::jsonb,
              CASE WHEN s.status = 'refunded' THEN amount WHEN b = 0 THEN amount / 2 ELSE 0 END,
              ts, ts, CASE WHEN s.status = 'pending' THEN NULL ELSE ts + interval '2 minutes' END,
              CASE WHEN s.status = 'pending' THEN now() + interval '1 day' ELSE ts + interval '15 minutes' END
       FROM (SELECT src.*, CASE WHEN b < 12 THEN 'succeeded' WHEN b = 12 THEN 'pending' WHEN b = 13 THEN 'refunded' WHEN b < 16 THEN 'failed' ELSE 'expired' END AS status FROM src) s
       RETURNING id, merchant_id, status, amount, created_at
     ), added AS (
       SELECT merchant_id, CASE WHEN status IN ('failed', 'expired') THEN 'failed' ELSE 'payment' END AS type,
              CASE WHEN status IN ('failed', 'expired') THEN 'failed' ELSE status END AS status
       FROM p
     )
     ${COUNT_ADDED}`,
    [merchantId, tag, from, to],
  );
  // Refund k refunds payment 18*floor(k/2) + (13 if k is odd: in full, else 0: half).
  await pg.query(
    `WITH r AS (
       INSERT INTO refunds (id, merchant_id, payment_id, amount, currency, status, reason, created_at)
       SELECT 'rfd_' || md5($2 || 'r' || k), $1, p.id, greatest(1, CASE WHEN k % 2 = 1 THEN p.amount ELSE p.amount / 2 END), 'THB', 'succeeded', NULL,
              p.created_at + random() * interval '3 days'
       FROM generate_series($3::int, $4::int - 1) AS k
       JOIN payments p ON p.id = 'pay_' || md5($2 || 'p' || (18 * (k / 2) + CASE WHEN k % 2 = 1 THEN 13 ELSE 0 END))
       RETURNING id, merchant_id, payment_id, amount, created_at
     )
     , added AS (
       INSERT INTO transactions (id, merchant_id, payment_id, refund_id, type, status, amount, currency, created_at)
       SELECT 'txn_' || md5(id), merchant_id, payment_id, id, 'refund', 'succeeded', -amount, 'THB', created_at FROM r
       RETURNING merchant_id, type, status
     )
     ${COUNT_ADDED}`,
    [merchantId, tag, rFrom, rTo],
  );
}

/** Ledger entries [from, to): payments, every 10th a refund, one in a thousand still pending; totals set to match. */
async function growLedger(pg: pg.Client, merchantId: string, from: number, to: number): Promise<void> {
  await pg.query(
    `INSERT INTO balance_transactions (id, merchant_id, type, amount, fee, fee_vat, net, currency, source_id, withdrawal_id, available_on, settled, created_at)
     SELECT 'bt_' || md5('b' || i), $1, t.type, t.amount, 0, 0, t.amount, 'THB', CASE WHEN t.type = 'refund' THEN 'rfd_' ELSE 'pay_' END || md5('s' || i), NULL,
            CASE WHEN i % 1000 = 1 THEN now() + interval '1 day' ELSE t.ts END, i % 1000 <> 1, t.ts
     FROM generate_series($2::int, $3::int - 1) AS i,
          LATERAL (SELECT CASE WHEN i % 10 = 9 THEN 'refund' ELSE 'payment' END AS type, CASE WHEN i % 10 = 9 THEN -500 ELSE 1000 END AS amount,
                          now() - random() * interval '730 days' AS ts) t`,
    [merchantId, from, to],
  );
  await pg.query(
    `INSERT INTO balances (merchant_id, available, pending)
     SELECT $1, coalesce(sum(net) FILTER (WHERE settled), 0), coalesce(sum(net) FILTER (WHERE NOT settled), 0) FROM balance_transactions WHERE merchant_id = $1
     ON CONFLICT (merchant_id) DO UPDATE SET available = EXCLUDED.available, pending = EXCLUDED.pending`,
    [merchantId],
  );
}

interface Query {
  name: string;
  query: (rows: number) => string;
}

const month = (): { start: string; end: string } => {
  const end = new Date(Date.now() - 90 * 86_400_000);
  const start = new Date(end.getTime() - 29 * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
};

const BASELINE = 'baseline: GET /payments/{id}';
/** The dashboard's Payments page (HTML, signed in), rendered over the same use cases: target p50 < 50 ms at 1M. */
const DASHBOARD_FIRST_PAGE = 'dashboard: Payments, first page';
const DASHBOARD_SEARCH = 'dashboard: Payments, search by reference';
const DASHBOARD_HOME = 'dashboard: Home (30 days of figures, no target)';
const BALANCE = 'GET /balance';
const LEDGER = 'first page of /balance/transactions';

const QUERIES: Query[] = [
  { name: 'first page (limit 20)', query: () => 'limit=20' },
  { name: 'deep page', query: (rows) => `limit=20&offset=${Math.min(500_000, Math.floor(rows / 2))}` },
  { name: 'status=succeeded', query: () => 'status=succeeded' },
  { name: 'status=pending (5%)', query: () => 'status=pending' },
  { name: 'type=refund', query: () => 'type=refund' },
  { name: 'type=failed', query: () => 'type=failed' },
  { name: 'date range (30 days)', query: () => `start_date=${month().start}&end_date=${month().end}` },
  { name: 'date range + type=payment', query: () => `start_date=${month().start}&end_date=${month().end}&type=payment` },
];

type Figures = { p50: number; p99: number; total: number };

/** Round-robin over the queries (so that noise from other work on the machine spreads evenly), 3 warm-ups each. */
async function measureAll(
  base: string,
  apiKey: string,
  queries: { name: string; query: string; headers?: Record<string, string> }[],
): Promise<Map<string, Figures>> {
  const times = new Map<string, number[]>(queries.map((q) => [q.name, []]));
  const totals = new Map<string, number>();
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (const q of queries) {
      const reply = await call(base, 'GET', q.query, { apiKey, timeoutMs: 30_000, headers: q.headers });
      if (reply.status !== 200) throw new Error(`GET ${q.query}: ${reply.status} ${reply.text.slice(0, 200)}`);
      totals.set(q.name, reply.body?.total ?? -1); // an HTML page (the dashboard's) has none
      if (i >= WARMUP) times.get(q.name)!.push(reply.ms);
    }
  }
  return new Map(
    queries.map((q) => [q.name, { p50: percentile(times.get(q.name)!, 50), p99: percentile(times.get(q.name)!, 99), total: totals.get(q.name)! }]),
  );
}

export const scaleDrill: Drill = {
  name: 'scale',
  summary: 'GET /transactions, GET /events and the ledger at 10k, 100k and 1M rows for one merchant: first page, deep page, filters, GET /balance',
  timeLimitMs: (short) => (short ? 600_000 : 3_600_000), // three times the rows since the events list and the ledger joined it
  async run(ctx) {
    const stages = ctx.short ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
    const db = await scratchDatabase(ctx);
    const merchant = await createTestMerchant(db.url);
    const other = await createTestMerchant(db.url, 'Other merchant');
    // No sweeper or dispatcher in the measured process (a worker's job); the data holds no overdue pending payment.
    const server = await startServer(ctx, { databaseUrl: db.url, env: { WEBHOOK_DISPATCHER: 'off' } });
    const pg = await inspect(ctx, db.url);
    let anyPayment = '';

    const results = new Map<string, Map<number, { p50: number; p99: number; total: number }>>();
    let payments = 0;
    let refunds = 0;
    let otherPayments = 0;
    let otherRefunds = 0;
    let ledgerEntries = 0;
    for (const rows of stages) {
      // rows = payments + refunds, refunds = payments / 9.
      const targetPayments = Math.round((rows * 9) / 10);
      const targetRefunds = rows - targetPayments;
      const started = Date.now();
      for (let e = payments + refunds; e < rows; e += 100_000) await growEvents(pg, merchant.id, 'm', e, Math.min(rows, e + 100_000));
      await growEvents(pg, other.id, 'o', Math.round((payments + refunds) / 10), Math.round(rows / 10));
      for (let p = payments; p < targetPayments; p += 100_000) {
        const pEnd = Math.min(targetPayments, p + 100_000);
        const rStart = refunds + Math.round(((p - payments) / (targetPayments - payments)) * (targetRefunds - refunds));
        const rEnd = refunds + Math.round(((pEnd - payments) / (targetPayments - payments)) * (targetRefunds - refunds));
        await grow(pg, merchant.id, 'm', p, pEnd, rStart, rEnd);
      }
      payments = targetPayments;
      refunds = targetRefunds;
      const otherTarget = Math.round(targetPayments / 10);
      await grow(pg, other.id, 'o', otherPayments, otherTarget, otherRefunds, Math.round(otherTarget / 9));
      otherPayments = otherTarget;
      otherRefunds = Math.round(otherTarget / 9);
      for (let e = ledgerEntries; e < rows; e += 100_000) await growLedger(pg, merchant.id, e, Math.min(rows, e + 100_000));
      ledgerEntries = rows;
      const inserted = Date.now();
      await pg.query('VACUUM ANALYZE transactions');
      await pg.query('VACUUM ANALYZE payments');
      await pg.query('VACUUM ANALYZE balance_transactions');
      await pg.query('VACUUM ANALYZE events');
      const counted = await pg.query<{ n: number }>(
        'SELECT ((SELECT count(*) FROM payments WHERE merchant_id = $1) + (SELECT count(*) FROM transactions WHERE merchant_id = $1))::int AS n',
        [merchant.id],
      );
      const size = await pg.query<{ s: string }>("SELECT pg_size_pretty(pg_total_relation_size('payments') + pg_total_relation_size('transactions')) AS s");
      ctx.log(
        `${counted.rows[0]!.n} transactions (payments and refunds): inserted in ${((inserted - started) / 1000).toFixed(0)} s, vacuumed in ${((Date.now() - inserted) / 1000).toFixed(0)} s, payments and transactions with indexes ${size.rows[0]!.s}`,
      );
      ctx.check(`rows for the merchant at stage ${rows}`, counted.rows[0]!.n, counted.rows[0]!.n === rows, String(rows));
      const events = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE merchant_id = $1', [merchant.id]);
      ctx.check(`events for the merchant at stage ${rows}`, events.rows[0]!.n, events.rows[0]!.n === rows, String(rows));
      anyPayment ||= (await pg.query<{ id: string }>('SELECT id FROM payments WHERE merchant_id = $1 LIMIT 1', [merchant.id])).rows[0]!.id;
      const cookie = { cookie: await dashboardCookie(db.url, merchant.id) };
      const measured = await measureAll(server.base, merchant.apiKey, [
        { name: DASHBOARD_FIRST_PAGE, query: '/dashboard/payments', headers: cookie },
        { name: DASHBOARD_HOME, query: '/dashboard', headers: cookie },
        // References are INV-<i> (see insertTransactions): one from the middle of the history.
        { name: DASHBOARD_SEARCH, query: `/dashboard/payments?q=INV-${Math.floor(payments / 2)}`, headers: cookie },
        { name: BASELINE, query: `/Thai/v1/payments/${anyPayment}` },
        { name: BALANCE, query: '/Thai/v1/balance' },
        { name: LEDGER, query: '/Thai/v1/balance/transactions?limit=20' },
        ...QUERIES.map((q) => ({ name: q.name, query: `/Thai/v1/transactions?${q.query(rows)}` })),
        ...EVENT_QUERIES.map((q) => ({ name: q.name, query: `/Thai/v1/events?${q.query(rows)}` })),
      ]);
      const searched = await call(server.base, 'GET', `/dashboard/payments?q=INV-${Math.floor(payments / 2)}`, { headers: cookie });
      const found = searched.text.match(/data-payment-id="/g)?.length ?? 0;
      ctx.check(`dashboard search by reference at stage ${rows}`, `${found} row`, searched.status === 200 && found === 1, '1 row');
      // The totals come from the counts the seeding kept itself (the row trigger was off): they must equal the rows.
      const listed = measured.get(QUERIES[0]!.name)!.total;
      ctx.check(`total of the transaction list at stage ${rows}`, listed, listed === rows, String(rows));
      for (const [name, r] of measured) {
        if (!results.has(name)) results.set(name, new Map());
        results.get(name)!.set(rows, r);
        ctx.log(`${rows} ${name}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, total ${r.total}`);
      }
    }
    for (const [name, byRows] of results) {
      const cells = stages.map((rows) => {
        const r = byRows.get(rows)!;
        return `${ms(r.p50)} / ${ms(r.p99)}`;
      });
      const last = byRows.get(stages.at(-1)!)!;
      if (name === BASELINE) {
        ctx.figure(`${name}: p50 / p99 at ${stages.join(' | ')}`, cells.join(' | '), 'HTTP + auth + one indexed row');
      } else if (name === BALANCE) {
        ctx.check(
          `${name}: p50 / p99 at ${stages.join(' | ')}`,
          cells.join(' | '),
          last.p50 < TARGET_MS,
          `p50 < ${TARGET_MS} ms at ${stages.at(-1)} ledger entries (running totals)`,
        );
      } else if (name.startsWith('first page') || name === EVENTS_FIRST_PAGE || name === DASHBOARD_FIRST_PAGE || name === DASHBOARD_SEARCH) {
        ctx.check(`${name}: p50 / p99 at ${stages.join(' | ')}`, cells.join(' | '), last.p50 < TARGET_MS, `p50 < ${TARGET_MS} ms at ${stages.at(-1)}`);
      } else {
        ctx.figure(`${name}: p50 / p99 at ${stages.join(' | ')}`, cells.join(' | '), `total ${last.total}`);
      }
    }
  },
};
