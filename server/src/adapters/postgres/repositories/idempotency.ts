import type { IdempotencyStore } from '../../../ports/repositories.js';
import type { Db } from './query.js';

export const idempotencyStore = (db: Db): IdempotencyStore => ({
  async tryLock(merchantId, key) {
    // A transaction-scoped advisory lock: held until commit or rollback, shared by every server instance.
    const result = await db.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [`${merchantId}:${key}`]);
    return Boolean(result.rows[0]?.locked);
  },
  async find(merchantId, key, notBefore) {
    const row = await db('idempotency_keys').where({ merchant_id: merchantId, key }).where('created_at', '>=', notBefore).first();
    return row ? { fingerprint: row.fingerprint, status: row.response_status, body: row.response_body, createdAt: row.created_at } : null;
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
