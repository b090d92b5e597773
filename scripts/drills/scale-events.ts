/**
 * The events part of the scale drill: one merchant's outbox grown with the transactions (as many events as
 * transaction rows at each stage, 10% as many for the second merchant), bulk inserted like the service writes them
 * (the payload is the webhook body), then GET /Thai/v1/events timed like the transaction list.
 */
import type pg from 'pg';

/** Events [from, to) of a merchant: 60% payment.succeeded, 20% payment.pending, 15% payment.failed, 5% refund.completed; two years of dates. */
export async function growEvents(pg: pg.Client, merchantId: string, tag: string, from: number, to: number): Promise<void> {
  // The row trigger would append one count change per event for the servers' fold to sum later: the drill counts the
  // batch itself instead, one counter row per batch (its merchants have no webhooks to fan out to).
  await pg.query('ALTER TABLE events DISABLE TRIGGER events_added');
  try {
    await insertEvents(pg, merchantId, tag, from, to);
  } finally {
    await pg.query('ALTER TABLE events ENABLE TRIGGER events_added');
  }
}

async function insertEvents(pg: pg.Client, merchantId: string, tag: string, from: number, to: number): Promise<void> {
  await pg.query(
    `WITH src AS (
       SELECT i, 'evt_' || md5($2 || 'e' || i) AS id, now() - random() * interval '730 days' AS ts,
              CASE WHEN i % 20 < 12 THEN 'payment.succeeded' WHEN i % 20 < 16 THEN 'payment.pending' WHEN i % 20 < 19 THEN 'payment.failed' ELSE 'refund.completed' END AS kind
       FROM generate_series($3::int, $4::int - 1) AS i
     ), added AS (
       INSERT INTO events (id, merchant_id, kind, payload, created_at)
       SELECT id, $1, kind,
              json_build_object('id', id, 'event', kind,
                'data', json_build_object('payment_id', 'pay_' || md5($2 || 'p' || i), 'status', split_part(kind, '.', 2), 'amount', 100 + i % 5000000,
                                          'currency', 'THB', 'reference', 'INV-' || i, 'metadata', json_build_object('order_id', 'x')),
                'timestamp', to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
              ts
       FROM src
       RETURNING merchant_id, kind
     )
     INSERT INTO event_counts SELECT merchant_id, kind, 0, count(*) FROM added GROUP BY 1, 2
     ON CONFLICT (merchant_id, kind, slot) DO UPDATE SET n = event_counts.n + excluded.n`,
    [merchantId, tag, from, to],
  );
}

const month = (): { start: string; end: string } => {
  const end = new Date(Date.now() - 90 * 86_400_000);
  const start = new Date(end.getTime() - 29 * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
};

export const EVENTS_FIRST_PAGE = 'events: first page (limit 20)';

export const EVENT_QUERIES: { name: string; query: (rows: number) => string }[] = [
  { name: EVENTS_FIRST_PAGE, query: () => 'limit=20' },
  { name: 'events: deep page', query: (rows) => `limit=20&offset=${Math.min(500_000, Math.floor(rows / 2))}` },
  { name: 'events: type=payment.failed (15%)', query: () => 'type=payment.failed' },
  { name: 'events: type=refund.completed (5%)', query: () => 'type=refund.completed' },
  { name: 'events: date range (30 days)', query: () => `start_date=${month().start}&end_date=${month().end}` },
  { name: 'events: date range + type', query: () => `start_date=${month().start}&end_date=${month().end}&type=payment.succeeded` },
];
