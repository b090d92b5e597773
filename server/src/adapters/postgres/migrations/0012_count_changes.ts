import type { Knex } from 'knex';

/**
 * v1.1, less work again for the statement every payment is written by, same guarantees.
 *
 * - Counts: a write no longer updates a counter row (an upsert: an index probe, a row lock and a new row version
 *   per write); it appends its change (+1 or -1) to `transaction_count_changes` or `event_count_changes`, plain heaps
 *   without an index. A fold (count-folding.ts, about once a second in every server and worker) moves the changes
 *   into the counters in one statement. Totals read the views `transaction_totals` and `event_totals` (counters
 *   UNION ALL changes not yet folded): one statement, one snapshot, so every change is seen exactly once.
 * - Payments: never deleted and their id never changes, so, as for merchants in 0011, a guard refusing DELETE,
 *   TRUNCATE and a changed id keeps every `payment_id` of a QR code or transaction pointing at a payment, and their
 *   two foreign keys go. Both rows are only ever written in the statement (or transaction) that writes or locks their
 *   payment. Refunds, bank records and the other tables off the hot path keep their foreign keys to payments.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE TABLE transaction_count_changes (merchant_id text NOT NULL, type text NOT NULL, status text NOT NULL, n integer NOT NULL)');
  await knex.raw('CREATE TABLE event_count_changes (merchant_id text NOT NULL, kind text NOT NULL, n integer NOT NULL)');
  await knex.raw(`CREATE VIEW transaction_totals AS
      SELECT merchant_id, type, status, n FROM transaction_counts UNION ALL SELECT merchant_id, type, status, n FROM transaction_count_changes`);
  await knex.raw(`CREATE VIEW event_totals AS
      SELECT merchant_id, kind, n FROM event_counts UNION ALL SELECT merchant_id, kind, n FROM event_count_changes`);

  await knex.raw(`
      CREATE OR REPLACE FUNCTION transaction_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND (OLD.merchant_id, OLD.type, OLD.status) IS NOT DISTINCT FROM (NEW.merchant_id, NEW.type, NEW.status) THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO transaction_count_changes VALUES (OLD.merchant_id, OLD.type, OLD.status, -1);
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO transaction_count_changes VALUES (NEW.merchant_id, NEW.type, NEW.status, 1);
        END IF;
        RETURN NULL;
      END $$`);
  await knex.raw(`CREATE OR REPLACE FUNCTION event_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.kind = 'webhook.test' THEN
          RETURN NULL;
        END IF;
        INSERT INTO event_count_changes VALUES (NEW.merchant_id, NEW.kind, 1);
        INSERT INTO webhook_deliveries (id, merchant_id, webhook_id, event_id, event_kind, status, attempts, next_attempt_at, created_at)
        SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.merchant_id, w.id, NEW.id, NEW.kind, 'pending', 0, NEW.created_at, NEW.created_at
        FROM webhooks w
        WHERE w.merchant_id = NEW.merchant_id AND w.status = 'active' AND w.deleted_at IS NULL AND w.events @> jsonb_build_array(NEW.kind);
        IF FOUND THEN
          PERFORM pg_notify('webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END $$`);
  await knex.raw(`
      CREATE OR REPLACE FUNCTION event_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event_count_changes SELECT merchant_id, kind, -count(*) FROM old_events WHERE kind <> 'webhook.test' GROUP BY 1, 2;
        RETURN NULL;
      END $$`);

  await knex.raw(`
      CREATE FUNCTION payments_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'payments are never deleted and their id never changes (% refused)', TG_OP
          USING ERRCODE = 'restrict_violation', HINT = 'QR codes and transactions name payments without a foreign key';
      END $$`);
  await knex.raw('CREATE TRIGGER payments_kept BEFORE DELETE ON payments FOR EACH ROW EXECUTE FUNCTION payments_kept()');
  await knex.raw(`CREATE TRIGGER payments_id_kept BEFORE UPDATE OF id ON payments
      FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION payments_kept()`);
  await knex.raw('CREATE TRIGGER payments_not_truncated BEFORE TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION payments_kept()');
  await knex.raw('ALTER TABLE qr_codes DROP CONSTRAINT qr_codes_payment_id_foreign');
  await knex.raw('ALTER TABLE transactions DROP CONSTRAINT transactions_payment_id_foreign');
}
