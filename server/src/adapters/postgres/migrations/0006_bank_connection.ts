import type { Knex } from 'knex';

/** v1.1, the bank connection: what the bank reported (each transaction once), and which live payments to ask about. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bank_transactions', (t) => {
    t.text('id').primary();
    t.text('bank_transaction_id').notNullable().unique();
    t.text('ref1').notNullable();
    t.text('ref2');
    t.text('amount').notNullable(); // as the bank wrote it: an unmatched amount may not even be money
    t.text('biller_id').notNullable();
    t.text('payer_name');
    t.text('payer_account');
    t.text('sending_bank_code');
    t.timestamp('paid_at', { useTz: true }).notNullable();
    t.text('payment_id').references('payments.id');
    t.text('merchant_id').references('merchants.id');
    t.text('unmatched_reason');
    t.timestamp('recorded_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX bank_transactions_unmatched ON bank_transactions (recorded_at DESC, id DESC) WHERE unmatched_reason IS NOT NULL');
  await knex.schema.createTable('bank_checks', (t) => {
    t.text('payment_id').primary().references('payments.id');
    t.text('bank_reference').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('due_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX bank_checks_due ON bank_checks (due_at)');
}
