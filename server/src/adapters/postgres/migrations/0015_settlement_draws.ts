import type { Knex } from 'knex';

/**
 * v1.2, settlement per credit: which payment credit each draw on `pending` consumed, so that a credit matures exactly
 * what refunds left of it and "nothing is available before its own delay" can be checked from the database.
 *
 * A row is one ledger entry's draw on one credit: a refund's take (positive) or a failed refund's give-back (negative).
 * Earlier refunds took from `pending` without saying from which credit; what they took is known per merchant (the net
 * of its unsettled credits less its `pending`). It is recorded against the merchant's latest refund and drawn from its
 * earliest-maturing credits: of every way to place it, that one makes no money available sooner than any other.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE balance_draws (
      entry_id text NOT NULL REFERENCES balance_transactions(id),
      credit_id text NOT NULL REFERENCES balance_transactions(id),
      amount bigint NOT NULL CHECK (amount <> 0),
      PRIMARY KEY (entry_id, credit_id))`);
  await knex.raw('CREATE INDEX balance_draws_by_credit ON balance_draws (credit_id)');
  await knex.raw(`
      WITH drawn AS (
        SELECT b.merchant_id,
          (SELECT coalesce(sum(t.net), 0) FROM balance_transactions t WHERE t.merchant_id = b.merchant_id AND NOT t.settled) - b.pending AS amount
        FROM balances b),
      credits AS (
        SELECT t.id, t.merchant_id, t.net, d.amount AS drawn,
          sum(t.net) OVER (PARTITION BY t.merchant_id ORDER BY t.available_on, t.id) - t.net AS earlier
        FROM balance_transactions t JOIN drawn d ON d.merchant_id = t.merchant_id
        WHERE NOT t.settled AND t.type = 'payment' AND d.amount > 0),
      latest_refund AS (
        SELECT DISTINCT ON (merchant_id) merchant_id, id FROM balance_transactions WHERE type = 'refund'
        ORDER BY merchant_id, created_at DESC, id DESC)
      INSERT INTO balance_draws (entry_id, credit_id, amount)
      SELECT r.id, c.id, least(c.net, c.drawn - c.earlier)
      FROM credits c JOIN latest_refund r ON r.merchant_id = c.merchant_id
      WHERE c.earlier < c.drawn AND c.net > 0`);
}
