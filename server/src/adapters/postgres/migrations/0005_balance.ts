import type { Knex } from 'knex';

/** v1.1, balance and withdrawals: the ledger, its running totals and counts, withdrawals, payout accounts and fees. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE merchants
      ADD COLUMN fee_bps integer NOT NULL DEFAULT 0,
      ADD COLUMN payout_bank_code text, ADD COLUMN payout_account_number text, ADD COLUMN payout_account_name text`);
  // Running totals, one row per merchant: GET /balance reads them, and locking the row serializes debits.
  await knex.raw(`CREATE TABLE balances (
      merchant_id text PRIMARY KEY REFERENCES merchants(id),
      available bigint NOT NULL DEFAULT 0 CHECK (available >= 0),
      pending bigint NOT NULL DEFAULT 0 CHECK (pending >= 0))`);
  await knex.raw(`CREATE TABLE balance_transactions (
      id text PRIMARY KEY, merchant_id text NOT NULL REFERENCES merchants(id), type text NOT NULL,
      amount bigint NOT NULL, fee bigint NOT NULL, fee_vat bigint NOT NULL, net bigint NOT NULL, currency text NOT NULL,
      source_id text NOT NULL, withdrawal_id text, available_on timestamptz NOT NULL, settled boolean NOT NULL,
      created_at timestamptz NOT NULL)`);
  // One entry per cause: a payment is credited once, a failed withdrawal returned once.
  await knex.raw('CREATE UNIQUE INDEX balance_transactions_once ON balance_transactions (source_id, type)');
  await knex.raw('CREATE INDEX balance_transactions_by_merchant ON balance_transactions (merchant_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX balance_transactions_by_merchant_type ON balance_transactions (merchant_id, type, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX balance_transactions_unsettled ON balance_transactions (merchant_id, available_on) WHERE NOT settled');
  await knex.raw('CREATE INDEX balance_transactions_unpaid ON balance_transactions (merchant_id) WHERE withdrawal_id IS NULL AND settled');
  await knex.raw('CREATE INDEX balance_transactions_by_withdrawal ON balance_transactions (withdrawal_id) WHERE withdrawal_id IS NOT NULL');
  // Totals of the ledger list without counting a million rows (as 0003 does for transactions).
  await knex.raw(`CREATE TABLE balance_transaction_counts (
      merchant_id text NOT NULL REFERENCES merchants(id), type text NOT NULL, slot smallint NOT NULL, n bigint NOT NULL,
      PRIMARY KEY (merchant_id, type, slot))`);
  await knex.raw(`
      CREATE FUNCTION balance_transaction_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO balance_transaction_counts VALUES (NEW.merchant_id, NEW.type, floor(random() * 16)::smallint, 1)
        ON CONFLICT (merchant_id, type, slot) DO UPDATE SET n = balance_transaction_counts.n + 1;
        RETURN NULL;
      END $$`);
  await knex.raw(`CREATE TRIGGER balance_transactions_count AFTER INSERT ON balance_transactions
      FOR EACH ROW EXECUTE FUNCTION balance_transaction_counts_maintain()`);
  await knex.raw(`CREATE TABLE withdrawals (
      id text PRIMARY KEY, merchant_id text NOT NULL REFERENCES merchants(id), mode text NOT NULL,
      amount bigint NOT NULL, currency text NOT NULL, status text NOT NULL, description text,
      bank_code text NOT NULL, account_number text NOT NULL, account_name text NOT NULL,
      failure_code text, failure_message text,
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, completed_at timestamptz)`);
  await knex.raw('CREATE INDEX withdrawals_by_merchant ON withdrawals (merchant_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX withdrawals_by_merchant_status ON withdrawals (merchant_id, status, created_at DESC, id DESC)');
  await knex.raw("CREATE INDEX withdrawals_in_flight ON withdrawals (mode, updated_at) WHERE status IN ('pending', 'processed')");
  // A live refund is paid back through the payout rail: where to, and whether an export file carried it yet.
  await knex.raw(`ALTER TABLE refunds
      ADD COLUMN payout_bank_code text, ADD COLUMN payout_account_number text, ADD COLUMN payout_account_name text,
      ADD COLUMN payout_exported_at timestamptz`);
  await knex.raw("CREATE INDEX refunds_awaiting_payout ON refunds (created_at) WHERE status = 'pending' AND payout_bank_code IS NOT NULL");
}
