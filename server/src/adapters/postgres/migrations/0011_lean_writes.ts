import type { Knex } from 'knex';

/**
 * v1.1, less work for PostgreSQL in the statement every payment is written by, same guarantees.
 *
 * - Events: ONE row-level trigger counts the event into the writing connection's own slot (backend pid mod 64, as
 *   transaction_counts since 0010) and fans it out, instead of two statement-level triggers with transition tables,
 *   whose count went to a random one of 16 rows that concurrent writers waited on until the other committed. Same
 *   deliveries (one pending per active webhook of the merchant subscribed to the kind), same NOTIFY when any.
 *   `webhook.test` stays out of the counts and the fan-out (no webhook can subscribe to it; the trigger stops first).
 *   Deletes (the 30-day purge, in batches) keep their statement-level trigger (0007).
 * - Merchants: never deleted and their id never changes, so a guard that refuses DELETE, TRUNCATE and a changed id
 *   keeps every row's merchant_id pointing at a merchant forever, which is all the foreign keys from the hot tables
 *   gave. They are dropped: each insert paid a lookup and a FOR KEY SHARE lock on the one merchant row that every
 *   concurrent request of the merchant shares. Every insert names the merchant its API key authenticated.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER events_count_added ON events');
  await knex.raw('DROP TRIGGER events_fan_out ON events');
  await knex.raw('DROP FUNCTION event_counts_add()');
  await knex.raw('DROP FUNCTION events_fan_out()');
  await knex.raw(`CREATE FUNCTION event_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.kind = 'webhook.test' THEN
          RETURN NULL;
        END IF;
        INSERT INTO event_counts VALUES (NEW.merchant_id, NEW.kind, pg_backend_pid() % 64, 1)
        ON CONFLICT (merchant_id, kind, slot) DO UPDATE SET n = event_counts.n + 1;
        INSERT INTO webhook_deliveries (id, merchant_id, webhook_id, event_id, event_kind, status, attempts, next_attempt_at, created_at)
        SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.merchant_id, w.id, NEW.id, NEW.kind, 'pending', 0, NEW.created_at, NEW.created_at
        FROM webhooks w
        WHERE w.merchant_id = NEW.merchant_id AND w.status = 'active' AND w.deleted_at IS NULL AND w.events @> jsonb_build_array(NEW.kind);
        IF FOUND THEN
          PERFORM pg_notify('webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END $$`);
  await knex.raw('CREATE TRIGGER events_added AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION event_added()');

  await knex.raw(`
      CREATE FUNCTION merchants_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'merchants are never deleted and their id never changes (% refused)', TG_OP
          USING ERRCODE = 'restrict_violation', HINT = 'payments, QR codes, transactions, events and idempotency keys name merchants without a foreign key';
      END $$`);
  await knex.raw('CREATE TRIGGER merchants_kept BEFORE DELETE ON merchants FOR EACH ROW EXECUTE FUNCTION merchants_kept()');
  await knex.raw(`CREATE TRIGGER merchants_id_kept BEFORE UPDATE OF id ON merchants
      FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION merchants_kept()`);
  await knex.raw('CREATE TRIGGER merchants_not_truncated BEFORE TRUNCATE ON merchants FOR EACH STATEMENT EXECUTE FUNCTION merchants_kept()');
  for (const table of ['payments', 'qr_codes', 'transactions', 'events', 'idempotency_keys']) {
    await knex.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_merchant_id_foreign`);
  }
}
