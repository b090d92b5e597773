import type { Knex } from 'knex';

/**
 * v1.2, unmatched money: what the operator did with it (returned to the payer through the bulk-transfer rail, once, or
 * closed with a note), and a NOTIFY so that an open checkout page hears of money that did not fit its payment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bank_transactions', (t) => {
    t.text('resolution'); // null: open; 'returned' or 'resolved'
    t.text('resolution_note');
    t.timestamp('resolved_at', { useTz: true });
    // A return goes to the payer's account as the bank listed it, as a live refund does.
    t.bigInteger('return_amount');
    t.text('return_bank_code');
    t.text('return_account_number');
    t.text('return_account_name');
    t.text('return_status'); // 'pending', 'succeeded' or 'failed'
    t.timestamp('return_exported_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX bank_transactions_unmatched_by_payment ON bank_transactions (payment_id) WHERE unmatched_reason IS NOT NULL');
  await knex.raw(
    "CREATE INDEX bank_transactions_returns_unexported ON bank_transactions (resolved_at) WHERE return_status = 'pending' AND return_exported_at IS NULL",
  );
  // The checkout page of the payment the money named changes: it says the transfer was received and does not match.
  await knex.raw(`
        CREATE OR REPLACE FUNCTION unmatched_money_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('payment_status', qr_code_id) FROM payments WHERE id = NEW.payment_id AND qr_code_id IS NOT NULL;
          RETURN NULL;
        END $$`);
  await knex.raw(`CREATE TRIGGER unmatched_money_notify AFTER INSERT ON bank_transactions
        FOR EACH ROW WHEN (NEW.unmatched_reason IS NOT NULL AND NEW.payment_id IS NOT NULL) EXECUTE FUNCTION unmatched_money_notify()`);
}
