import type { Knex } from 'knex';

/**
 * v1.3, webhook fairness whatever the endpoints do: the claim finds the merchants with pending deliveries by skipping
 * through this index (one descent per merchant), then takes each one's oldest due rows from it, so one merchant's
 * backlog, however long and old, is never read past to reach another's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX deliveries_due_by_merchant ON webhook_deliveries (merchant_id, next_attempt_at) WHERE status = 'pending'");
}
