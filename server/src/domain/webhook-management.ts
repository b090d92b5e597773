import { DomainError } from './errors.js';

/** A merchant reads events for this long; the background worker purges older ones. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** How long a rotated-out secret keeps signing beside the new one, unless the merchant says otherwise. */
export const DEFAULT_PREVIOUS_SECRET_SECONDS = 86_400;
export const MAX_PREVIOUS_SECRET_SECONDS = 604_800;

/** When the previous secret stops signing; null when it stops at once (and is not kept at all). */
export function previousSecretExpiry(expireInSeconds: number | undefined, now: Date): Date | null {
  const seconds = expireInSeconds ?? DEFAULT_PREVIOUS_SECRET_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_PREVIOUS_SECRET_SECONDS) {
    throw new DomainError(
      'invalid_request',
      `expire_previous_in_seconds must be an integer from 0 to ${MAX_PREVIOUS_SECRET_SECONDS}.`,
      'expire_previous_in_seconds',
    );
  }
  return seconds === 0 ? null : new Date(now.getTime() + seconds * 1000);
}

/** A rotated-out secret that still signs until `expiresAt`. */
export interface EarlierSecret {
  secret: string;
  retiredAt: Date;
  expiresAt: Date;
}

/** Signatures on one delivery at most: the current secret's and those of up to two earlier secrets. */
export const MAX_SIGNING_SECRETS = 3;

/**
 * The earlier secrets after a rotation, newest first: the replaced one (unless it stops at once) and those still
 * within their own windows, keeping room for the current secret's signature (the oldest are dropped).
 */
export function earlierSecretsAfterRotation(replaced: string, earlier: readonly EarlierSecret[], replacedExpiresAt: Date | null, now: Date): EarlierSecret[] {
  const stillSigning = earlier.filter((e) => e.expiresAt > now).sort((a, b) => b.retiredAt.getTime() - a.retiredAt.getTime());
  const justRetired = replacedExpiresAt ? [{ secret: replaced, retiredAt: now, expiresAt: replacedExpiresAt }] : [];
  return [...justRetired, ...stillSigning].slice(0, MAX_SIGNING_SECRETS - 1);
}

/** The secrets a delivery is signed with: the current one first, then the earlier ones still signing. */
export const signingSecrets = (current: string, earlier: readonly string[]): string[] => [current, ...earlier].slice(0, MAX_SIGNING_SECRETS);
