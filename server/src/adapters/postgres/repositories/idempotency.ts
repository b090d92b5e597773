import type { IdempotencyStore, KeyedRecord } from '../../../ports/repositories.js';
import type { Gate } from '../held-inserts.js';
import type { Db } from './query.js';

/** The transaction-scoped advisory lock of a key, shared by every server instance. */
const LOCK = 'pg_try_advisory_xact_lock(hashtextextended(?, 0))';
const lockName = (merchantId: string, key: string): string => `${merchantId}:${key}`;

/**
 * The gate of a held statement (../held-inserts.ts) that writes a keyed result: it takes the key's lock and stores the
 * record, unless another request holds the key or a result is stored under it since `notBefore`. A result committed
 * by a concurrent request after this statement's snapshot was taken still counts: ON CONFLICT sees it.
 */
export const storeIfKeyFree = ({ merchantId, key, response, notBefore }: KeyedRecord): Gate => ({
  sql: `INSERT INTO idempotency_keys (merchant_id, key, fingerprint, response_status, response_body, created_at)
        SELECT ?, ?, ?, ?, ?, ? WHERE ${LOCK}
        ON CONFLICT (merchant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, response_status = excluded.response_status,
          response_body = excluded.response_body, created_at = excluded.created_at
        WHERE idempotency_keys.created_at < ?
        RETURNING 1`,
  bindings: [merchantId, key, response.fingerprint, response.status, response.body, response.createdAt, lockName(merchantId, key), notBefore],
});

export const idempotencyStore = (db: Db): IdempotencyStore => ({
  async claim(merchantId, key, notBefore) {
    // The key's lock is taken by one statement and the stored result read by the next, whose snapshot is taken after
    // the lock: a result committed by the request that held the key just before is seen.
    const { rows: locks } = await db.raw(`SELECT ${LOCK} AS locked`, [lockName(merchantId, key)]);
    if (!locks[0]?.locked) return { held: false, prior: null };
    const row = await db('idempotency_keys').where({ merchant_id: merchantId, key }).where('created_at', '>=', notBefore).first();
    // A replay acknowledges a write, and a primary restarted after a crash may hold commits its synchronous standby never
    // got. Touching the record gives this transaction WAL of its own, so its COMMIT waits for the standby to hold
    // everything before it, the replayed write included: a replay is never answered from a write a failover would lose.
    if (row) await db('idempotency_keys').where({ merchant_id: merchantId, key }).update({ created_at: row.created_at });
    const prior = row ? { fingerprint: row.fingerprint, status: row.response_status, body: row.response_body, createdAt: row.created_at } : null;
    return { held: true, prior };
  },
  async save(merchantId, key, response) {
    const row = {
      merchant_id: merchantId,
      key,
      fingerprint: response.fingerprint,
      response_status: response.status,
      response_body: response.body,
      created_at: response.createdAt,
    };
    // A key older than 24 h may be used again: the new result replaces the old one.
    await db('idempotency_keys').insert(row).onConflict(['merchant_id', 'key']).merge();
  },
  async purgeOlderThan(cutoff) {
    return db('idempotency_keys').where('created_at', '<', cutoff).delete();
  },
});
