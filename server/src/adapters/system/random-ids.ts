import { randomBytes, randomInt } from 'node:crypto';
import { idPrefixes } from '../../domain/ids.js';
import type { IdGenerator } from '../../ports/ids.js';

const REFERENCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const ID_BYTES = 16;

/**
 * The CSPRNG is asked for 256 ids' worth of bytes at a time (as crypto.randomUUID does), not once per id: every
 * request gets a Request-Id, and one call per id costs more than the rest of making it. Each byte is used once.
 */
const batch = { bytes: Buffer.alloc(0), used: 0 };
function randomHex(): string {
  if (batch.used + ID_BYTES > batch.bytes.length) {
    batch.bytes = randomBytes(256 * ID_BYTES);
    batch.used = 0;
  }
  const hex = batch.bytes.toString('hex', batch.used, batch.used + ID_BYTES);
  batch.used += ID_BYTES;
  return hex;
}

/** 128 random bits, hex: ids of public things (QR images) cannot be guessed. */
export const randomIds: IdGenerator = {
  next: (kind) => `${idPrefixes[kind]}_${randomHex()}`,
  bankReference: () => Array.from({ length: 20 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join(''),
  webhookSecret: () => `whsec_${randomBytes(32).toString('base64')}`,
};
