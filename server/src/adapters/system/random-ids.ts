import { randomBytes, randomInt } from 'node:crypto';
import { idPrefixes } from '../../domain/ids.js';
import type { IdGenerator } from '../../ports/ids.js';

const REFERENCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 128 random bits, hex: ids of public things (QR images) cannot be guessed. */
export const randomIds: IdGenerator = {
  next: (kind) => `${idPrefixes[kind]}_${randomBytes(16).toString('hex')}`,
  bankReference: () => Array.from({ length: 20 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join(''),
  webhookSecret: () => `whsec_${randomBytes(32).toString('base64')}`,
};
