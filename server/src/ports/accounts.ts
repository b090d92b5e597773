/** Password hashing (scrypt or argon2id): slow on purpose, salted, self-describing. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time; false for a hash it cannot read. */
  verify(password: string, hash: string): Promise<boolean>;
}

/** TOTP (RFC 6238) over a base32 secret. */
export interface SecondFactor {
  newSecret(): string;
  /** The time step the code belongs to, within a step either side of `at`; null when it matches none. */
  matchStep(secret: string, code: string, at: Date): number | null;
  /** The otpauth:// URI an authenticator app reads from the QR code. */
  keyUri(secret: string, account: string): string;
}

/** Random secrets handed to a browser or a person, stored only as hashes. */
export interface SecretTokens {
  /** At least 128 random bits, URL-safe: session ids, invitation tokens, CSRF tokens. */
  token(): string;
  /** A recovery code a person can type: `xxxxx-xxxxx-xxxxx`. */
  recoveryCode(): string;
  /** SHA-256, hex: enough for secrets with this much entropy. */
  hash(secret: string): string;
  /** Constant-time comparison of two strings. */
  same(a: string, b: string): boolean;
}

export interface AccountSecrets {
  passwords: PasswordHasher;
  secondFactor: SecondFactor;
  tokens: SecretTokens;
}
