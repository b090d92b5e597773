import { normalizeCode, RECOVERY_CODE_COUNT } from '../domain/second-factor.js';
import type { Services } from './services.js';

/** A recovery code is stored as the hash of what it is without spaces and dashes, as it is compared. */
export const recoveryCodeHash = (s: Services, code: string): string => s.accounts.tokens.hash(normalizeCode(code));

/** A fresh set of recovery codes: the codes are shown once, the hashes kept. */
export function newRecoveryCodes(s: Services): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => s.accounts.tokens.recoveryCode());
  return { codes, hashes: codes.map((code) => recoveryCodeHash(s, code)) };
}
