import type { Knex } from 'knex';

/**
 * v1.1, cheaper write path: each connection adds to a transaction-count slot of its own (its backend pid), not a
 * random one of 16, so two connections never wait on one counter row until the other commits. Totals sum every slot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
      CREATE OR REPLACE FUNCTION transaction_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        own_slot smallint := pg_backend_pid() % 64;
      BEGIN
        IF TG_OP = 'UPDATE' AND (OLD.merchant_id, OLD.type, OLD.status) IS NOT DISTINCT FROM (NEW.merchant_id, NEW.type, NEW.status) THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO transaction_counts VALUES (OLD.merchant_id, OLD.type, OLD.status, own_slot, -1)
          ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n - 1;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO transaction_counts VALUES (NEW.merchant_id, NEW.type, NEW.status, own_slot, 1)
          ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n + 1;
        END IF;
        RETURN NULL;
      END $$`);
}
