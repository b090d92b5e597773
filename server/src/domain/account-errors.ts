/** Why a dashboard account action was refused: a stable code the pages turn into words. */
export const accountErrorCodes = [
  'sign_in_failed',
  'invalid_email',
  'unknown_merchant',
  'password_too_short',
  'password_too_long',
  'password_is_email',
  'password_common',
  'wrong_password',
  'wrong_code',
  'invitation_unusable',
  'already_member',
  'not_a_member',
  'forbidden',
  'owners_only',
  'last_owner',
] as const;

export type AccountErrorCode = (typeof accountErrorCodes)[number];

export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}
