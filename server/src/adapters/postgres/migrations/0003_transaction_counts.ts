import type { Knex } from 'knex';

/** v1: totals of the transaction list kept by a trigger, without counting the rows. */
export async function up(knex: Knex): Promise<void> {
  // Totals of the transaction list without counting a million rows: counts per merchant, type and status, kept by
  // a trigger in the writing transaction. 16 slots per combination so concurrent writers rarely wait on one row.
  await knex.raw(`
        CREATE TABLE transaction_counts (
          merchant_id text NOT NULL REFERENCES merchants(id), type text NOT NULL, status text NOT NULL,
          slot smallint NOT NULL, n bigint NOT NULL,
          PRIMARY KEY (merchant_id, type, status, slot))`);
  await knex.raw(`
        CREATE FUNCTION transaction_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'UPDATE' AND (OLD.merchant_id, OLD.type, OLD.status) IS NOT DISTINCT FROM (NEW.merchant_id, NEW.type, NEW.status) THEN
            RETURN NULL;
          END IF;
          IF TG_OP IN ('UPDATE', 'DELETE') THEN
            INSERT INTO transaction_counts VALUES (OLD.merchant_id, OLD.type, OLD.status, floor(random() * 16)::smallint, -1)
            ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n - 1;
          END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN
            INSERT INTO transaction_counts VALUES (NEW.merchant_id, NEW.type, NEW.status, floor(random() * 16)::smallint, 1)
            ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n + 1;
          END IF;
          RETURN NULL;
        END $$`);
  await knex.raw(`CREATE TRIGGER transactions_count AFTER INSERT OR UPDATE OR DELETE ON transactions
        FOR EACH ROW EXECUTE FUNCTION transaction_counts_maintain()`);
  await knex.raw(`INSERT INTO transaction_counts SELECT merchant_id, type, status, 0, count(*) FROM transactions GROUP BY 1, 2, 3`);
}
