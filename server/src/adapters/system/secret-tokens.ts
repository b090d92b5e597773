import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { SecretTokens } from '../../ports/accounts.js';

// No 0/o, 1/l/i: a recovery code is read off paper. Three groups of five: 74 bits, so a fast hash is enough.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const recoveryPart = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');

/** 256-bit tokens from the CSPRNG, SHA-256 hashes, constant-time comparison. */
export const randomSecretTokens: SecretTokens = {
  token: () => randomBytes(32).toString('base64url'),
  recoveryCode: () => `${recoveryPart()}-${recoveryPart()}-${recoveryPart()}`,
  hash: (secret) => createHash('sha256').update(secret).digest('hex'),
  same(a, b) {
    const left = Buffer.from(a);
    const right = Buffer.from(b);
    return left.length === right.length && timingSafeEqual(left, right);
  },
};
