import type { Knex } from 'knex';

/**
 * v1.3, slips on the checkout page: how many slips a customer has sent for one payment (at most 5 are checked). One
 * row per payment, counted up in one statement, so concurrent uploads cannot take more tries than there are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkout_slip_tries', (t) => {
    t.text('payment_id').primary();
    t.integer('tries').notNullable();
    t.timestamp('last_tried_at', { useTz: true }).notNullable();
  });
}
