import { randomBytes } from 'node:crypto';
import { idPrefixes } from '../../domain/ids.js';
import type { IdGenerator } from '../../ports/ids.js';

const REFERENCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const REFERENCE_LENGTH = 20;
/** A byte below this is one character of a reference (byte % 36); 252 is 7 x 36, so each is as likely as any other. */
const REFERENCE_BYTE_LIMIT = 252;
const ID_BYTES = 16;

/**
 * The CSPRNG is asked for 256 ids' worth of bytes at a time (as crypto.randomUUID does), not once per id: every
 * request gets a Request-Id, and one call per id costs more than the rest of making it. Each byte is used once.
 */
const batch = { bytes: Buffer.alloc(0), used: 0 };
function randomHex(): string {
  if (batch.used + ID_BYTES > batch.bytes.length) refill();
  const hex = batch.bytes.toString('hex', batch.used, batch.used + ID_BYTES);
  batch.used += ID_BYTES;
  return hex;
}

function refill(): void {
  batch.bytes = randomBytes(256 * ID_BYTES);
  batch.used = 0;
}

/**
 * 20 characters of A-Z and 0-9 from the same bytes: a byte of 252 or more is skipped (rejection sampling), so the
 * characters are uniform, as `crypto.randomInt` per character made them: under 1 µs a reference where that took 8.
 */
function randomReference(): string {
  let reference = '';
  while (reference.length < REFERENCE_LENGTH) {
    if (batch.used >= batch.bytes.length) refill();
    const byte = batch.bytes[batch.used++]!;
    if (byte < REFERENCE_BYTE_LIMIT) reference += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  }
  return reference;
}

/** 128 random bits, hex: ids of public things (QR images) cannot be guessed. */
export const randomIds: IdGenerator = {
  next: (kind) => `${idPrefixes[kind]}_${randomHex()}`,
  bankReference: randomReference,
  webhookSecret: () => `whsec_${randomBytes(32).toString('base64')}`,
};
