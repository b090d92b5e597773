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
    throw new DomainError('invalid_request', `expire_previous_in_seconds must be an integer from 0 to ${MAX_PREVIOUS_SECRET_SECONDS}.`, 'expire_previous_in_seconds');
  }
  return seconds === 0 ? null : new Date(now.getTime() + seconds * 1000);
}
