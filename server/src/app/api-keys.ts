import { expiryAfterRoll, isUsable, type ApiKeyRecord } from '../domain/api-key.js';
import type { AuditContext } from '../domain/audit.js';
import { roleMayMakeKey, type Permission } from '../domain/permissions.js';
import type { IssuedApiKey, KeyUsage } from '../ports/api-keys.js';
import { recordAudit } from './audit.js';
import type { Services } from './services.js';
import type { ActingMember } from './team.js';

/** An operator command that cannot be carried out: unknown merchant, no such key. */
export class ApiKeyAdminError extends Error {}

/** A member asked for a key with powers its role does not have (a developer's unrestricted key, or one that refunds). */
export class KeyAboveMakerError extends Error {
  constructor(readonly member: KeyMakingMember) {
    super(`A ${member.role} may make only keys whose permissions the ${member.role} role has.`);
    this.name = 'KeyAboveMakerError';
  }
}

/** The dashboard member making or rolling a key; null where the operator does (the CLI). */
export type KeyMakingMember = Pick<ActingMember, 'userId' | 'role'>;

/** A key never has more power than the member who makes it: refused before anything is issued. */
function checkMaker(member: KeyMakingMember | null, permissions: Permission[] | null): void {
  if (member && !roleMayMakeKey(member.role, permissions)) throw new KeyAboveMakerError(member);
}

const recordOf = (merchantId: string, issued: IssuedApiKey, createdAt: Date): ApiKeyRecord => ({
  id: issued.id,
  merchantId,
  prefix: issued.prefix,
  last4: issued.last4,
  createdAt,
  lastUsedAt: null,
  expiresAt: null,
  revokedAt: null,
  permissions: issued.permissions,
});

async function merchantOf(s: Services, merchantId: string) {
  const merchant = await s.uow.repos.merchants.findById(merchantId);
  if (!merchant) throw new ApiKeyAdminError(`No merchant with id '${merchantId}'.`);
  return merchant;
}

/**
 * Issues a new unrestricted key for the merchant (its secret is returned once) and makes every other usable
 * unrestricted key stop after `expireOldInMs` (0: at once). A key that was already due to stop sooner keeps its
 * earlier expiry. Restricted keys are left alone: a point-of-sale device keeps working while the server's key rolls.
 * A `member` (the dashboard's) needs a role that may make unrestricted keys, and is recorded as the new key's maker.
 */
export async function rollApiKey(
  s: Services,
  merchantId: string,
  expireOldInMs: number,
  context: AuditContext,
  member: KeyMakingMember | null = null,
): Promise<{ apiKey: string; key: ApiKeyRecord; replaced: ApiKeyRecord[] }> {
  checkMaker(member, null);
  const merchant = await merchantOf(s, merchantId);
  const issued = { ...s.apiKeys.issue(merchant.mode), createdByUserId: member?.userId ?? null };
  const now = s.clock.now();
  const replaced = await s.uow.run(async (tx) => {
    const old = (await tx.apiKeys.listByMerchant(merchantId)).filter((key) => key.permissions === null && isUsable(key, now));
    await tx.apiKeys.insert(merchantId, issued, now);
    const stopping = old.map((key) => ({ ...key, expiresAt: expiryAfterRoll(key.expiresAt, now, expireOldInMs) }));
    for (const key of stopping) await tx.apiKeys.setExpiry(key.id, key.expiresAt);
    await recordAudit(tx, s, context, merchantId, 'api_key_rolled', issued.id, {
      last4: issued.last4,
      replaced: stopping.map((key) => key.last4 ?? '????').join(','),
      expire_old_in_ms: expireOldInMs,
    });
    return stopping;
  });
  return { apiKey: issued.secret, key: recordOf(merchantId, issued, now), replaced };
}

/**
 * Issues one more key for the merchant, leaving the others as they are: restricted to `permissions` (an `rk_` key),
 * or unrestricted (an `sk_` key) when they are null. Its secret is returned once. A `member` (the dashboard's) may make
 * only a key within its role, and is recorded as the key's maker.
 */
export async function createApiKey(
  s: Services,
  merchantId: string,
  permissions: Permission[] | null,
  context: AuditContext,
  member: KeyMakingMember | null = null,
): Promise<{ apiKey: string; key: ApiKeyRecord }> {
  checkMaker(member, permissions);
  const merchant = await merchantOf(s, merchantId);
  const issued = { ...s.apiKeys.issue(merchant.mode, permissions), createdByUserId: member?.userId ?? null };
  const now = s.clock.now();
  await s.uow.run(async (tx) => {
    await tx.apiKeys.insert(merchantId, issued, now);
    await recordAudit(tx, s, context, merchantId, 'api_key_created', issued.id, {
      last4: issued.last4,
      permissions: permissions?.join(',') ?? null,
    });
  });
  return { apiKey: issued.secret, key: recordOf(merchantId, issued, now) };
}

export async function listApiKeys(s: Services, merchantId: string): Promise<ApiKeyRecord[]> {
  if (!(await s.uow.repos.merchants.findById(merchantId))) throw new ApiKeyAdminError(`No merchant with id '${merchantId}'.`);
  return s.uow.repos.apiKeys.listByMerchant(merchantId);
}

/**
 * Stops one of the merchant's keys at once: the one with `keyId` (the dashboard's), or the unrevoked one ending in
 * `last4` (the CLI's), refusing when none, or more than one, ends so.
 */
export async function revokeApiKey(s: Services, merchantId: string, which: string | { keyId: string }, context: AuditContext): Promise<ApiKeyRecord> {
  const unrevoked = (await listApiKeys(s, merchantId)).filter((key) => key.revokedAt === null);
  const keys = typeof which === 'string' ? unrevoked.filter((key) => key.last4 === which) : unrevoked.filter((key) => key.id === which.keyId);
  const named = typeof which === 'string' ? `ending in '${which}'` : `'${which.keyId}'`;
  if (keys.length !== 1) {
    throw new ApiKeyAdminError(
      keys.length === 0
        ? `Merchant '${merchantId}' has no unrevoked key ${named}.`
        : `${keys.length} keys of '${merchantId}' end in '${String(which)}'; roll the keys instead.`,
    );
  }
  const key = keys[0]!;
  const now = s.clock.now();
  await s.uow.run(async (tx) => {
    await tx.apiKeys.revoke(key.id, now);
    await recordAudit(tx, s, context, merchantId, 'api_key_revoked', key.id, { last4: key.last4 });
  });
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
