import { dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_MIN_LENGTH = 12;
/** Longer passwords add nothing but hashing work an attacker could make us do. */
export const PASSWORD_MAX_LENGTH = 200;

// The common-passwords list zxcvbn-ts maintains (leaked-password frequency lists); only the ones long enough matter.
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].filter((word) => word.length >= PASSWORD_MIN_LENGTH).map((word) => word.toLowerCase()));

export type PasswordProblem = 'too_short' | 'too_long' | 'is_email' | 'common';

/** Why a new password is refused, or null: at least 12 characters, not the e-mail (or its name part), not a common one. */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (length > PASSWORD_MAX_LENGTH) return 'too_long';
  const lower = password.trim().toLowerCase();
  const address = email.trim().toLowerCase();
  if (lower === address || lower === address.split('@')[0]) return 'is_email';
  if (COMMON_PASSWORDS.has(lower)) return 'common';
  return null;
}
