import { DomainError } from './errors.js';
import type { Metadata } from './payment.js';

export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_BYTES = 8 * 1024;

/** Metadata is the merchant's own JSON object, echoed everywhere; it is bounded so it stays cheap to echo. */
export function assertMetadata(metadata: Metadata): void {
  const keys = Object.keys(metadata).length;
  const bytes = new TextEncoder().encode(JSON.stringify(metadata)).length;
  if (keys > MAX_METADATA_KEYS || bytes > MAX_METADATA_BYTES) {
    throw new DomainError(
      'invalid_request',
      `metadata may hold at most ${MAX_METADATA_KEYS} keys and ${MAX_METADATA_BYTES} bytes of JSON; it has ${keys} keys and ${bytes} bytes.`,
      'metadata',
    );
  }
}
