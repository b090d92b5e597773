import type { Permission } from './permissions.js';

/** One of a merchant's API keys, as the operator sees it: never the secret, never its hash. */
export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  /** `sk_test_XXXX` or `rk_test_XXXX`: enough to recognise a key, never enough to use it. */
  prefix: string;
  /** The secret's last four characters; null for keys issued before they were kept. */
  last4: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** What a restricted key may do; null: an unrestricted key, which may do everything. */
  permissions: Permission[] | null;
}

/** A key authenticates until it is revoked or its expiry has come. */
export const isUsable = (key: Pick<ApiKeyRecord, 'expiresAt' | 'revokedAt'>, now: Date): boolean =>
  key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now.getTime());

/** When the keys a roll replaces stop: after the delay, or sooner if they were already going to. */
export const expiryAfterRoll = (current: Date | null, rolledAt: Date, delayMs: number): Date => {
  const stop = new Date(rolledAt.getTime() + delayMs);
  return current !== null && current.getTime() < stop.getTime() ? current : stop;
};
