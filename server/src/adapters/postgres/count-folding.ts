import type { Knex } from 'knex';

/**
 * Moves the count changes writes append (migration 0012_count_changes) into the counters: per table ONE statement
 * deletes the changes it sees and adds their sums to the counter rows, so a reader of the totals views sees each
 * change exactly once. Concurrent folds (several instances) never fold a change twice: a change one of them deleted
 * is skipped by the other once the first commits. New changes written meanwhile wait for the next fold.
 */
const FOLDS = [
  `WITH folded AS (DELETE FROM transaction_count_changes RETURNING merchant_id, type, status, n)
   INSERT INTO transaction_counts SELECT merchant_id, type, status, 0, sum(n) FROM folded GROUP BY 1, 2, 3
   ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n + excluded.n`,
  `WITH folded AS (DELETE FROM event_count_changes RETURNING merchant_id, kind, n)
   INSERT INTO event_counts SELECT merchant_id, kind, 0, sum(n) FROM folded GROUP BY 1, 2
   ON CONFLICT (merchant_id, kind, slot) DO UPDATE SET n = event_counts.n + excluded.n`,
];

/** How often the changes are folded: the unfolded tail a total sums stays about a second of writes. */
export const FOLD_INTERVAL_MS = 1_000;
/** Every so many folds the two tables are vacuumed, so the dead rows each fold leaves are not scanned by readers for long. */
const VACUUM_EVERY = 15;

export async function foldCounts(knex: Knex): Promise<void> {
  for (const fold of FOLDS) await knex.raw(fold);
}

/** The background job: one fold per call, and every VACUUM_EVERY calls a vacuum of the two change tables. */
export function countFolder(knex: Knex): () => Promise<void> {
  let folds = 0;
  return async () => {
    await foldCounts(knex);
    if (++folds % VACUUM_EVERY === 0) await knex.raw('VACUUM transaction_count_changes, event_count_changes');
  };
}
