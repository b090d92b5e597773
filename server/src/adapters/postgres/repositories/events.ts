import type { EventOutbox } from '../../../ports/repositories.js';
import { insertNow, type Db, type Insert } from './query.js';

/** The event row; its trigger (migrations 0011_lean_writes, 0012_count_changes) counts it, fans it out to the merchant's webhooks and wakes the dispatchers on commit. */
export const eventOutbox = (db: Db, insert: Insert = insertNow(db)): EventOutbox => ({
  async record(event) {
    await insert('events', {
      id: event.id,
      merchant_id: event.merchantId,
      kind: event.kind,
      payload: JSON.stringify(event.payload),
      created_at: event.createdAt,
    });
  },
});
