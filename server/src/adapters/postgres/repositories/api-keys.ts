import type { ApiKeyRecord } from '../../../domain/api-key.js';
import type { Permission } from '../../../domain/permissions.js';
import type { ApiKeyRepository, NewApiKey } from '../../../ports/repositories.js';
import { insertNow, type Db, type Insert } from './query.js';

interface ApiKeyRow {
  id: string;
  merchant_id: string;
  key_prefix: string;
  key_last4: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  permissions: Permission[] | null;
}

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  prefix: row.key_prefix,
  last4: row.key_last4,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  permissions: row.permissions,
});

/** The row of a new key: its permissions as a JSON list, or null for an unrestricted key. */
export const apiKeyRow = (merchantId: string, key: NewApiKey, createdAt: Date) => ({
  id: key.id,
  merchant_id: merchantId,
  key_hash: key.hash,
  key_prefix: key.prefix,
  key_last4: key.last4,
  permissions: key.permissions ? JSON.stringify(key.permissions) : null,
  created_at: createdAt,
  created_by_user_id: key.createdByUserId ?? null,
});

export const apiKeyRepository = (db: Db, insert: Insert = insertNow(db)): ApiKeyRepository => ({
  async insert(merchantId, key, createdAt) {
    await insert('api_keys', apiKeyRow(merchantId, key, createdAt));
  },
  async listByMerchant(merchantId) {
    const rows = await db<ApiKeyRow>('api_keys')
      .where({ merchant_id: merchantId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('id', 'merchant_id', 'key_prefix', 'key_last4', 'created_at', 'last_used_at', 'expires_at', 'revoked_at', 'permissions');
    return rows.map(toRecord);
  },
  async setExpiry(id, expiresAt) {
    await db('api_keys').where({ id }).update({ expires_at: expiresAt });
  },
  async revoke(id, at) {
    await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: at });
  },
  async recordLastUse(uses) {
    if (uses.length === 0) return;
    // One statement for the whole batch; GREATEST skips NULL, so a first use is stored and an older one never wins.
    const values = uses.map(() => '(?, ?::timestamptz)').join(', ');
    await db.raw(
      `UPDATE api_keys AS k SET last_used_at = GREATEST(k.last_used_at, v.at) FROM (VALUES ${values}) AS v(id, at) WHERE k.id = v.id`,
      uses.flatMap((use) => [use.keyId, use.at.toISOString()]),
    );
  },
});
