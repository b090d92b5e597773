import type { Knex } from 'knex';
import { testEventKind } from '../../domain/test-event.js';
import { keepRowsInsteadOfForeignKeys } from './kept-rows.js';
import { eventAddedBody } from './migration-v11-lean-writes.js';

/**
 * Less work again for the statement every payment is written by (issue 11), same guarantees.
 *
 * - Counts: a write no longer updates a counter row (an upsert: an index probe, a row lock and a new row version
 *   per write); it appends its change (+1 or -1) to `transaction_count_changes` or `event_count_changes`, plain heaps
 *   without an index. A fold (./count-folding.ts, about once a second in every server and worker) moves the changes
 *   into the counters in one statement: the DELETE of the changes and the upsert of their sums commit together.
 *   Totals read the views `transaction_totals` and `event_totals` (counters UNION ALL changes not yet folded): one
 *   statement, one snapshot, so every change is seen exactly once, before its fold or after it, and totals stay exact.
 * - Payments: never deleted and their id never changes (nothing in the service, its CLI or its scripts does either),
 *   so, as for merchants in v11_lean_writes, a guard refusing DELETE, TRUNCATE and a changed id keeps every
 *   `payment_id` of a QR code or transaction pointing at a payment, and their two foreign keys go: each paid a
 *   lookup and a FOR KEY SHARE lock on the payment at the end of the statement that had just written it. Both rows
 *   are only ever written in the statement (or transaction) that writes or locks their payment. Refunds, bank
 *   records and the other tables off the hot path keep their foreign keys to payments.
 */
export const v11CountChanges = {
  name: 'v11_count_changes',
  async up(knex: Knex): Promise<void> {
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
    await knex.raw(`CREATE OR REPLACE FUNCTION ${eventAddedBody('INSERT INTO event_count_changes VALUES (NEW.merchant_id, NEW.kind, 1);')}`);
    await knex.raw(`
      CREATE OR REPLACE FUNCTION event_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event_count_changes SELECT merchant_id, kind, -count(*) FROM old_events WHERE kind <> '${testEventKind}' GROUP BY 1, 2;
        RETURN NULL;
      END $$`);

    await keepRowsInsteadOfForeignKeys(knex, 'payments', ['qr_codes', 'transactions'], 'QR codes and transactions name payments without a foreign key');
  },
};
