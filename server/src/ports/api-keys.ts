import type { Mode } from '../domain/merchant.js';
import type { Permission } from '../domain/permissions.js';

export interface IssuedApiKey {
  id: string;
  secret: string; // shown once, never stored
  hash: string;
  prefix: string; // enough to recognise a key in logs, never enough to use it
  last4: string; // how the operator names a key to revoke
  permissions: Permission[] | null; // null: unrestricted
}

export interface ApiKeys {
  /** An unrestricted `sk_` key, or with `permissions` a restricted `rk_` one. */
  issue(mode: Mode, permissions?: Permission[] | null): IssuedApiKey;
  hash(secret: string): string;
  /** Constant-time comparison of two hashes. */
  sameHash(a: string, b: string): boolean;
}

/** Remembers when each key was last used, and writes it in batches: never a database write per request. */
export interface KeyUsage {
  touch(keyId: string, at: Date): void;
}
