import type { Knex } from 'knex';

/**
 * v1.3: a refund's transaction found by its refund (`updateRefundTransaction`), which read every transaction of every
 * merchant (a sequential scan: about 100 ms at a million rows, on each refund that completes or fails). Partial: a
 * payment's transaction (every QR code's) has no refund and writes no entry here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX transactions_by_refund ON transactions (refund_id) WHERE refund_id IS NOT NULL');
}
