import type { IdempotencyStore } from '../../../ports/repositories.js';
import type { Db } from './query.js';

export const idempotencyStore = (db: Db): IdempotencyStore => ({
  async claim(merchantId, key, notBefore) {
    // A transaction-scoped advisory lock, shared by every server instance, taken before the stored result is read.
    const { rows } = await db.raw(
      `SELECT locked, k.fingerprint, k.response_status, k.response_body, k.created_at
         FROM (SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked) lock
         LEFT JOIN idempotency_keys k ON lock.locked AND k.merchant_id = ? AND k.key = ? AND k.created_at >= ?`,
      [`${merchantId}:${key}`, merchantId, key, notBefore],
    );
    const row = rows[0];
    const prior = row?.fingerprint ? { fingerprint: row.fingerprint, status: row.response_status, body: row.response_body, createdAt: row.created_at } : null;
    return { held: Boolean(row?.locked), prior };
  },
  async save(merchantId, key, response) {
    const row = { merchant_id: merchantId, key, fingerprint: response.fingerprint, response_status: response.status, response_body: response.body, created_at: response.createdAt };
    // A key older than 24 h may be used again: the new result replaces the old one.
    await db('idempotency_keys').insert(row).onConflict(['merchant_id', 'key']).merge();
  },
  async purgeOlderThan(cutoff) {
    return db('idempotency_keys').where('created_at', '<', cutoff).delete();
  },
});
