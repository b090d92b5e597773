import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../../ports/accounts.js';

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs 128 MiB per hash; N=2^15 with r=8 is 32 MiB and ~50 ms here, a
// choice that keeps sign-in bursts from exhausting memory while still costing an attacker dearly per guess.
export const DEFAULT_COST_LOG2 = 15;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/**
 * scrypt from node:crypto, N = 2^costLog2 for new hashes (PASSWORD_HASH_COST: 15 unless a test suite lowers it); the
 * hash names its parameters (`scrypt$N$r$p$salt$key`), so each is verified with its own and they can rise later.
 */
export const scryptPasswords = (costLog2 = DEFAULT_COST_LOG2): PasswordHasher => {
  const cost = { N: 2 ** costLog2, r: 8, p: 1 };
  return {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const key = await derive(password, salt, cost);
      return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
    },
    async verify(password, hash) {
      const [scheme, n, r, p, salt, key] = hash.split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64url');
      const derived = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
      return derived.length === expected.length && timingSafeEqual(derived, expected);
    },
  };
};
