import type { Knex } from 'knex';

/**
 * v1.3, slip verification: one row per slip a merchant checks. `verified_transaction` (the sending bank and the
 * transaction reference) is set only on the `verified` row and unique across all merchants, so however many requests
 * show one slip at once, the database lets one of them be the verified one; the others are duplicates.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('slip_verifications', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('status').notNullable(); // verified, duplicate, not_found, wrong_receiver, amount_mismatch
    t.text('sending_bank').notNullable();
    t.text('trans_ref').notNullable();
    t.text('verified_transaction').unique();
    t.bigInteger('amount');
    t.timestamp('paid_at', { useTz: true });
    t.text('payment_id');
    t.timestamp('first_verified_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}
