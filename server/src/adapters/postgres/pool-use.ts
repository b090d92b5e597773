import type { Knex } from 'knex';

interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The connections of knex's pool (tarn) right now; null when the client keeps none. */
export function poolUse(knex: Knex): { used: number; free: number; waiting: number; max: number } | null {
  const pool = (knex.client as { pool?: TarnPool | null }).pool;
  if (!pool || typeof pool.numUsed !== 'function') return null;
  return { used: pool.numUsed(), free: pool.numFree(), waiting: pool.numPendingAcquires(), max: pool.max };
}
