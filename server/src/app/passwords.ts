import { AccountError, type AccountErrorCode } from '../domain/account-errors.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem, type PasswordProblem } from '../domain/password-policy.js';

const refusals: Record<PasswordProblem, [AccountErrorCode, string]> = {
  too_short: ['password_too_short', `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`],
  too_long: ['password_too_long', `A password has at most ${PASSWORD_MAX_LENGTH} characters.`],
  is_email: ['password_is_email', 'The password must not be your e-mail address.'],
  common: ['password_common', 'That password is on a list of common passwords: choose another.'],
};

/** Refuses a new password the policy does not allow. */
export function checkNewPassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new AccountError(...refusals[problem]);
}
