import { expiryAfterRoll, isUsable, type ApiKeyRecord } from '../domain/api-key.js';
import type { KeyUsage } from '../ports/api-keys.js';
import type { Services } from './services.js';

/** An operator command that cannot be carried out: unknown merchant, no such key. */
export class ApiKeyAdminError extends Error {}

/**
 * Issues a new key for the merchant (its secret is returned once) and makes every other usable key stop after
 * `expireOldInMs` (0: at once). A key that was already due to stop sooner keeps its earlier expiry.
 */
export async function rollApiKey(
  s: Services,
  merchantId: string,
  expireOldInMs: number,
): Promise<{ apiKey: string; key: ApiKeyRecord; replaced: ApiKeyRecord[] }> {
  const merchant = await s.uow.repos.merchants.findById(merchantId);
  if (!merchant) throw new ApiKeyAdminError(`No merchant with id '${merchantId}'.`);
  const issued = s.apiKeys.issue(merchant.mode);
  const now = s.clock.now();
  const replaced = await s.uow.run(async (tx) => {
    const old = (await tx.apiKeys.listByMerchant(merchantId)).filter((key) => isUsable(key, now));
    await tx.apiKeys.insert(merchantId, issued, now);
    const stopping = old.map((key) => ({ ...key, expiresAt: expiryAfterRoll(key.expiresAt, now, expireOldInMs) }));
    for (const key of stopping) await tx.apiKeys.setExpiry(key.id, key.expiresAt);
    return stopping;
  });
  const key: ApiKeyRecord = {
    id: issued.id,
    merchantId,
    prefix: issued.prefix,
    last4: issued.last4,
    createdAt: now,
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
  };
  return { apiKey: issued.secret, key, replaced };
}

export async function listApiKeys(s: Services, merchantId: string): Promise<ApiKeyRecord[]> {
  if (!(await s.uow.repos.merchants.findById(merchantId))) throw new ApiKeyAdminError(`No merchant with id '${merchantId}'.`);
  return s.uow.repos.apiKeys.listByMerchant(merchantId);
}

/** Stops the merchant's key ending in `last4` at once; refuses when no unrevoked key, or more than one, ends so. */
export async function revokeApiKey(s: Services, merchantId: string, last4: string): Promise<ApiKeyRecord> {
  const keys = (await listApiKeys(s, merchantId)).filter((key) => key.last4 === last4 && key.revokedAt === null);
  if (keys.length !== 1) {
    throw new ApiKeyAdminError(
      keys.length === 0
        ? `Merchant '${merchantId}' has no unrevoked key ending in '${last4}'.`
        : `${keys.length} keys of '${merchantId}' end in '${last4}'; roll the keys instead.`,
    );
  }
  const key = keys[0]!;
  const now = s.clock.now();
  await s.uow.run((tx) => tx.apiKeys.revoke(key.id, now));
  return { ...key, revokedAt: now };
}

/**
 * Keeps each key's latest use in memory and writes them all in one statement every `intervalMs`, so that
 * authentication never costs a write. A failed write keeps the uses for the next one.
 */
export function batchedKeyUsage(
  s: Services,
  intervalMs: number,
  onError: (error: unknown) => void,
): KeyUsage & { flush(): Promise<void>; stop(): Promise<void> } {
  let pending = new Map<string, Date>();
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await s.uow.repos.apiKeys.recordLastUse([...batch].map(([keyId, at]) => ({ keyId, at })));
      } catch (error) {
        for (const [keyId, at] of batch) if (!pending.has(keyId)) pending.set(keyId, at);
        onError(error);
      }
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    touch: (keyId, at) => void pending.set(keyId, at),
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
