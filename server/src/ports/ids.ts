import type { IdKind } from '../domain/ids.js';

export interface IdGenerator {
  /** A new identifier of that kind, with at least 128 random bits. */
  next(kind: IdKind): string;
  /** The reference carried in a QR payload: 20 characters of [A-Z0-9]. */
  bankReference(): string;
  /** A fresh webhook signing secret (`whsec_...`). */
  webhookSecret(): string;
}
