import type { Knex } from 'knex';
import { keptIdle, keptWaiting } from './kept-connections.js';

interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * The connections of knex's pool (tarn) right now; null when the client keeps none. Connections kept between hot
 * statements and unused (./kept-connections.ts) count as free: any acquire takes them first; hot statements waiting
 * for a connection another one ends with count as waiting, as the pool's own acquires do.
 */
export function poolUse(knex: Knex): { used: number; free: number; waiting: number; max: number } | null {
  const pool = (knex.client as { pool?: TarnPool | null }).pool;
  if (!pool || typeof pool.numUsed !== 'function') return null;
  const idle = keptIdle(knex);
  return { used: pool.numUsed() - idle, free: pool.numFree() + idle, waiting: pool.numPendingAcquires() + keptWaiting(knex), max: pool.max };
}
