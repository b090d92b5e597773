import type { Knex } from 'knex';
import { testEventKind } from '../../domain/test-event.js';
import { deliveriesChannel } from '../../ports/webhook-delivery.js';
import { keepRowsInsteadOfForeignKeys } from './kept-rows.js';

/** The tables every QR request writes, whose merchant_id no longer has a foreign key (the guard below keeps it true). */
const hotTables = ['payments', 'qr_codes', 'transactions', 'events', 'idempotency_keys'];

/** The events trigger's function (its name, then its body): count the event with `count`, then fan it out. */
export const eventAddedBody = (count: string): string => `event_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.kind = '${testEventKind}' THEN
          RETURN NULL;
        END IF;
        ${count}
        INSERT INTO webhook_deliveries (id, merchant_id, webhook_id, event_id, event_kind, status, attempts, next_attempt_at, created_at)
        SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.merchant_id, w.id, NEW.id, NEW.kind, 'pending', 0, NEW.created_at, NEW.created_at
        FROM webhooks w
        WHERE w.merchant_id = NEW.merchant_id AND w.status = 'active' AND w.deleted_at IS NULL AND w.events @> jsonb_build_array(NEW.kind);
        IF FOUND THEN
          PERFORM pg_notify('${deliveriesChannel}', '');
        END IF;
        RETURN NULL;
      END $$`;

/**
 * Less work for PostgreSQL in the statement every payment is written by (issue 11), same guarantees.
 *
 * - Events: ONE row-level trigger counts the event into the writing connection's own slot (backend pid mod 64, as
 *   transaction_counts since v11_hot_path) and fans it out, instead of two statement-level triggers with transition
 *   tables, whose count went to a random one of 16 rows that concurrent writers waited on until the other committed.
 *   Same deliveries (one pending per active webhook of the merchant subscribed to the kind), same NOTIFY when any.
 *   `webhook.test` stays out of the counts and the fan-out (no webhook can subscribe to it; the trigger stops first).
 *   Deletes (the 30-day purge, in batches) keep their statement-level trigger (migration v11_webhooks_self_service).
 *   The service writes one event per statement; a bulk load of thousands in one transaction should count them
 *   itself (the scale drill does): each upsert of a counter row walks the row's versions of that transaction.
 * - Merchants: never deleted and their id never changes (nothing in the service, its CLI or its scripts does either),
 *   so a guard that refuses DELETE, TRUNCATE and a changed id keeps every row's merchant_id pointing at a merchant
 *   forever, which is all the foreign keys from the hot tables gave. They are dropped: each insert paid a lookup and
 *   a FOR KEY SHARE lock on the one merchant row that every concurrent request of the merchant shares (MultiXacts).
 *   What a key checked on insert, that the merchant exists, holds because every insert names the merchant its API
 *   key authenticated (or, in the drills, one just created); a bug naming a made-up merchant would no longer fail.
 *   The other tables keep their foreign keys (not on the hot path).
 */
export const v11LeanWrites = {
  name: 'v11_lean_writes',
  async up(knex: Knex): Promise<void> {
    await knex.raw('DROP TRIGGER events_count_added ON events');
    await knex.raw('DROP TRIGGER events_fan_out ON events');
    await knex.raw('DROP FUNCTION event_counts_add()');
    await knex.raw('DROP FUNCTION events_fan_out()');
    await knex.raw(`CREATE FUNCTION ${eventAddedBody(`INSERT INTO event_counts VALUES (NEW.merchant_id, NEW.kind, pg_backend_pid() % 64, 1)
        ON CONFLICT (merchant_id, kind, slot) DO UPDATE SET n = event_counts.n + 1;`)}`);
    await knex.raw('CREATE TRIGGER events_added AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION event_added()');

    await keepRowsInsteadOfForeignKeys(knex, 'merchants', hotTables, 'payments, QR codes, transactions, events and idempotency keys name merchants without a foreign key');
  },
};
