import type { Knex } from 'knex';

/**
 * v1.1 webhook self-service: the events API reads the outbox (indexes for its filters, totals kept by triggers, an
 * age index for the 30-day purge), and a rotated secret keeps signing beside the new one until it expires.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhooks ADD COLUMN previous_secret text, ADD COLUMN previous_secret_expires_at timestamptz');
  // Test events go to one endpoint and are never listed: the unfiltered list reads an index without them.
  await knex.raw(`CREATE INDEX events_by_merchant ON events (merchant_id, created_at DESC, id DESC) WHERE kind <> 'webhook.test'`);
  await knex.raw('CREATE INDEX events_by_merchant_kind ON events (merchant_id, kind, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX events_by_age ON events (created_at)');
  await knex.raw('CREATE INDEX deliveries_by_event ON webhook_deliveries (event_id)');
  // Totals without counting a million rows, as transaction_counts (0003); per statement, so a batch of
  // events costs one upsert per merchant and kind. 16 slots so concurrent writers rarely wait on one row.
  await knex.raw(`
      CREATE TABLE event_counts (
        merchant_id text NOT NULL REFERENCES merchants(id), kind text NOT NULL, slot smallint NOT NULL, n bigint NOT NULL,
        PRIMARY KEY (merchant_id, kind, slot))`);
  await knex.raw(`
      CREATE FUNCTION event_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event_counts
        SELECT merchant_id, kind, floor(random() * 16)::smallint, count(*) FROM new_events WHERE kind <> 'webhook.test' GROUP BY 1, 2
        ON CONFLICT (merchant_id, kind, slot) DO UPDATE SET n = event_counts.n + excluded.n;
        RETURN NULL;
      END $$`);
  await knex.raw(`
      CREATE FUNCTION event_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event_counts
        SELECT merchant_id, kind, floor(random() * 16)::smallint, -count(*) FROM old_events WHERE kind <> 'webhook.test' GROUP BY 1, 2
        ON CONFLICT (merchant_id, kind, slot) DO UPDATE SET n = event_counts.n + excluded.n;
        RETURN NULL;
      END $$`);
  await knex.raw(`CREATE TRIGGER events_count_added AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
      FOR EACH STATEMENT EXECUTE FUNCTION event_counts_add()`);
  await knex.raw(`CREATE TRIGGER events_count_removed AFTER DELETE ON events REFERENCING OLD TABLE AS old_events
      FOR EACH STATEMENT EXECUTE FUNCTION event_counts_remove()`);
  await knex.raw(`INSERT INTO event_counts SELECT merchant_id, kind, 0, count(*) FROM events WHERE kind <> 'webhook.test' GROUP BY 1, 2`);
}
