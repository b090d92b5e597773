import type { Knex } from 'knex';

/** v1: the outbox fans out to deliveries where events are written. */
export async function up(knex: Knex): Promise<void> {
  // The outbox fans out where events are written, whatever statement writes them: one pending delivery per active
  // webhook of the merchant subscribed to the kind, and a NOTIFY that reaches listening dispatchers on commit.
  await knex.raw(`
        CREATE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO webhook_deliveries (id, merchant_id, webhook_id, event_id, event_kind, status, attempts, next_attempt_at, created_at)
          SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.merchant_id, w.id, e.id, e.kind, 'pending', 0, e.created_at, e.created_at
          FROM new_events e
          JOIN webhooks w ON w.merchant_id = e.merchant_id AND w.status = 'active' AND w.deleted_at IS NULL AND w.events @> jsonb_build_array(e.kind);
          IF FOUND THEN
            PERFORM pg_notify('webhook_deliveries', '');
          END IF;
          RETURN NULL;
        END $$`);
  await knex.raw(`CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
        FOR EACH STATEMENT EXECUTE FUNCTION events_fan_out()`);
}
