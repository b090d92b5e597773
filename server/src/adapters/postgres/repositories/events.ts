import type { EventOutbox } from '../../../ports/repositories.js';
import type { Db } from './query.js';

export const eventOutbox = (db: Db): EventOutbox => ({
  async insert(event) {
    await db('events').insert({ id: event.id, merchant_id: event.merchantId, kind: event.kind, payload: JSON.stringify(event.payload), created_at: event.createdAt });
  },
});
