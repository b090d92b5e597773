import type { Knex } from 'knex';

/**
 * v1.3, fewer index entries per QR code (issue #37): one index per list instead of one per filter. Each list's index
 * leads with the merchant and the columns it filters on; a list that does not filter on one of them merges that
 * column's values, each read newest first from the index (../repositories/query.ts, `newestAcross`), so a page costs
 * what it did at a million rows. Every payment, transaction and event written pays one index entry per list instead
 * of two or three: four fewer per QR code.
 * - payments: payments_by_merchant_status serves the unfiltered list too (merged over the statuses).
 * - transactions: one index on (merchant, type, status) replaces the three (unfiltered, by status, by type); a filter
 *   on type and status together, which had no index of its own, now reads it directly.
 * - events: events_by_merchant_kind serves the unfiltered list too (merged over the listable kinds).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX payments_by_merchant');
  await knex.raw('CREATE INDEX transactions_by_merchant_type_status ON transactions (merchant_id, type, status, created_at DESC, id DESC)');
  await knex.raw('DROP INDEX transactions_by_merchant, transactions_by_merchant_status, transactions_by_merchant_type');
  await knex.raw('DROP INDEX events_by_merchant');
}
