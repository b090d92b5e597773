import type { Knex } from 'knex';

/** Pending deliveries and the oldest one's creation, for /metrics: the partial index of pending rows serves it. */
export async function deliveryBacklog(knex: Knex): Promise<{ pending: number; oldestCreatedAt: Date | null }> {
  const row = (await knex('webhook_deliveries')
    .where({ status: 'pending' })
    .first(knex.raw('count(*)::int AS pending'), knex.raw('min(created_at) AS oldest'))) as { pending: number; oldest: Date | string | null } | undefined;
  return { pending: row?.pending ?? 0, oldestCreatedAt: row?.oldest ? new Date(row.oldest) : null };
}
