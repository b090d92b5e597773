/** A person who signs in to the dashboard: an e-mail address with a password and a second factor. */
export interface User {
  id: string;
  email: string;
  createdAt: Date;
  passwordChangedAt: Date;
}

/** What proves a user is who they say: never shown, never logged. */
export interface Credentials {
  passwordHash: string;
  /** The TOTP secret (base32): kept readable, since every code is checked against it. */
  totpSecret: string;
  /** The last TOTP time step accepted: a code is good once. */
  totpLastStep: number | null;
}

export const EMAIL_MAX_LENGTH = 254;

/** E-mail addresses are compared without case and surrounding spaces. */
export const normalizeEmail = (text: string): string => text.trim().toLowerCase();

/** Plausible enough to be an address someone reads: one @, a dot in the domain, no spaces or controls. */
export const isEmail = (text: string): boolean => text.length <= EMAIL_MAX_LENGTH && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u.test(text);
