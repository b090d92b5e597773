import type { Knex } from 'knex';

/**
 * v1.3, one row and three index entries fewer per QR code (issue #37): a payment's transaction is read from its
 * payment instead of stored beside it. Its type and status were always a function of the payment's status (pending,
 * succeeded and refunded: `payment` with that status; failed and expired: `failed`/`failed`), its amount, currency,
 * merchant and time the payment's; only its id was its own.
 * - The id: a new payment's transaction is `txn_` and the payment id's random part (no column, nothing written); one
 *   made before this migration keeps the id the API has shown, copied into `payments.transaction_id` (no index: the
 *   list finds payments by merchant and status, and reads the id from the row).
 * - `transactions` keeps refunds' transactions only (a check says so); the payment rows go with their count trigger
 *   off, so the totals stay as they were, and from here on a trigger on payments writes the count changes of the
 *   pair its status maps to (`transaction_count_changes`, folded as before), on insert and when its pair changes.
 * - `transactions_one_per_payment` goes: one transaction per payment is now true by construction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE payments ADD COLUMN transaction_id text');
  await knex.raw(`UPDATE payments p SET transaction_id = t.id FROM transactions t WHERE t.payment_id = p.id AND t.refund_id IS NULL`);
  await knex.raw('ALTER TABLE transactions DISABLE TRIGGER transactions_count');
  await knex.raw('DELETE FROM transactions WHERE refund_id IS NULL');
  await knex.raw('ALTER TABLE transactions ENABLE TRIGGER transactions_count');
  await knex.raw('DROP INDEX transactions_one_per_payment');
  await knex.raw('ALTER TABLE transactions ADD CONSTRAINT transactions_of_refunds_only CHECK (refund_id IS NOT NULL)');

  await knex.raw(`
      CREATE FUNCTION payment_transaction_counted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          IF (OLD.status IN ('failed', 'expired')) AND (NEW.status IN ('failed', 'expired')) THEN
            RETURN NULL;
          END IF;
          INSERT INTO transaction_count_changes VALUES (OLD.merchant_id,
            CASE WHEN OLD.status IN ('failed', 'expired') THEN 'failed' ELSE 'payment' END,
            CASE WHEN OLD.status IN ('failed', 'expired') THEN 'failed' ELSE OLD.status END, -1);
        END IF;
        INSERT INTO transaction_count_changes VALUES (NEW.merchant_id,
          CASE WHEN NEW.status IN ('failed', 'expired') THEN 'failed' ELSE 'payment' END,
          CASE WHEN NEW.status IN ('failed', 'expired') THEN 'failed' ELSE NEW.status END, 1);
        RETURN NULL;
      END $$`);
  await knex.raw(`CREATE TRIGGER payments_transaction_counted AFTER INSERT ON payments
      FOR EACH ROW EXECUTE FUNCTION payment_transaction_counted()`);
  await knex.raw(`CREATE TRIGGER payments_transaction_recounted AFTER UPDATE OF status ON payments
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION payment_transaction_counted()`);
}
