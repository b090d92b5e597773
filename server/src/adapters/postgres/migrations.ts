import type { Knex } from 'knex';
import { bankConnectionTables } from './bank-migration.js';
import { paymentStatusChannel } from '../../ports/payment-status.js';
import { deliveriesChannel } from '../../ports/webhook-delivery.js';
import { balanceMigration } from './v11-balance-migration.js';
import { webhooksSelfServiceMigration } from './webhooks-self-service-migration.js';
import { v11HotPath } from './migration-v11-hot-path.js';
import { v11CountChanges } from './migration-v11-count-changes.js';
import { v11LeanWrites } from './migration-v11-lean-writes.js';

interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
}

/** Migrations live in code so that PostgreSQL and PGlite run exactly the same ones. Append only. */
const migrations: Migration[] = [
  {
    name: '001_payments',
    async up(knex) {
      await knex.schema.createTable('merchants', (t) => {
        t.text('id').primary();
        t.text('name').notNullable();
        t.text('mode').notNullable();
        t.text('promptpay_id');
        t.text('biller_id');
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('api_keys', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('key_hash').notNullable().unique();
        t.text('key_prefix').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('payments', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('qr_code_id');
        t.text('status').notNullable();
        t.integer('amount').notNullable();
        t.text('currency').notNullable();
        t.text('reference');
        t.text('description');
        t.text('client_name');
        t.text('client_bank_name');
        t.text('client_bank_account');
        t.jsonb('metadata').notNullable();
        t.integer('refunded_amount').notNullable().defaultTo(0);
        t.text('card_brand');
        t.text('card_last4');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.timestamp('completed_at', { useTz: true });
        t.timestamp('expires_at', { useTz: true });
      });
      await knex.raw('CREATE INDEX payments_by_merchant ON payments (merchant_id, created_at DESC, id DESC)');
      await knex.raw('CREATE INDEX payments_by_merchant_status ON payments (merchant_id, status, created_at DESC, id DESC)');
      await knex.raw("CREATE INDEX payments_pending_expiry ON payments (expires_at) WHERE status = 'pending'");
      await knex.schema.createTable('qr_codes', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('payment_id').notNullable().references('payments.id');
        t.text('qr_data').notNullable();
        t.text('bank_reference').notNullable().unique();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('refunds', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('payment_id').notNullable().references('payments.id');
        t.integer('amount').notNullable();
        t.text('currency').notNullable();
        t.text('status').notNullable();
        t.text('reason');
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('transactions', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('payment_id').notNullable().references('payments.id');
        t.text('refund_id').references('refunds.id');
        t.text('type').notNullable();
        t.text('status').notNullable();
        t.integer('amount').notNullable();
        t.text('currency').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.raw('CREATE INDEX transactions_by_merchant ON transactions (merchant_id, created_at DESC, id DESC)');
      await knex.raw('CREATE INDEX transactions_by_merchant_status ON transactions (merchant_id, status, created_at DESC, id DESC)');
      await knex.raw('CREATE INDEX transactions_by_merchant_type ON transactions (merchant_id, type, created_at DESC, id DESC)');
      await knex.raw('CREATE UNIQUE INDEX transactions_one_per_payment ON transactions (payment_id) WHERE refund_id IS NULL');
      await knex.schema.createTable('idempotency_keys', (t) => {
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('key').notNullable();
        t.text('fingerprint').notNullable();
        t.integer('response_status').notNullable();
        t.text('response_body').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.primary(['merchant_id', 'key']);
      });
      await knex.raw('CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at)');
    },
  },
  {
    name: '002_webhooks',
    async up(knex) {
      await knex.schema.createTable('webhooks', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('url').notNullable();
        t.jsonb('events').notNullable();
        t.text('secret').notNullable();
        t.text('status').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('deleted_at', { useTz: true });
      });
      await knex.raw('CREATE INDEX webhooks_by_merchant ON webhooks (merchant_id, created_at DESC, id DESC) WHERE deleted_at IS NULL');
      await knex.schema.createTable('events', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('kind').notNullable();
        t.text('payload').notNullable(); // the exact bytes every delivery signs and sends
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('webhook_deliveries', (t) => {
        t.text('id').primary();
        t.text('merchant_id').notNullable().references('merchants.id');
        t.text('webhook_id').notNullable().references('webhooks.id');
        t.text('event_id').notNullable().references('events.id');
        t.text('event_kind').notNullable();
        t.text('status').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.integer('last_response_status');
        t.text('last_error');
        t.timestamp('next_attempt_at', { useTz: true });
        t.timestamp('delivered_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.raw('CREATE INDEX deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at DESC, id DESC)');
      await knex.raw("CREATE INDEX deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'");
    },
  },
  {
    name: '003_transaction_counts',
    async up(knex) {
      // Totals of the transaction list without counting a million rows: counts per merchant, type and status, kept by
      // a trigger in the writing transaction. 16 slots per combination so concurrent writers rarely wait on one row.
      await knex.raw(`
        CREATE TABLE transaction_counts (
          merchant_id text NOT NULL REFERENCES merchants(id), type text NOT NULL, status text NOT NULL,
          slot smallint NOT NULL, n bigint NOT NULL,
          PRIMARY KEY (merchant_id, type, status, slot))`);
      await knex.raw(`
        CREATE FUNCTION transaction_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'UPDATE' AND (OLD.merchant_id, OLD.type, OLD.status) IS NOT DISTINCT FROM (NEW.merchant_id, NEW.type, NEW.status) THEN
            RETURN NULL;
          END IF;
          IF TG_OP IN ('UPDATE', 'DELETE') THEN
            INSERT INTO transaction_counts VALUES (OLD.merchant_id, OLD.type, OLD.status, floor(random() * 16)::smallint, -1)
            ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n - 1;
          END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN
            INSERT INTO transaction_counts VALUES (NEW.merchant_id, NEW.type, NEW.status, floor(random() * 16)::smallint, 1)
            ON CONFLICT (merchant_id, type, status, slot) DO UPDATE SET n = transaction_counts.n + 1;
          END IF;
          RETURN NULL;
        END $$`);
      await knex.raw(`CREATE TRIGGER transactions_count AFTER INSERT OR UPDATE OR DELETE ON transactions
        FOR EACH ROW EXECUTE FUNCTION transaction_counts_maintain()`);
      await knex.raw(`INSERT INTO transaction_counts SELECT merchant_id, type, status, 0, count(*) FROM transactions GROUP BY 1, 2, 3`);
    },
  },
  {
    name: '004_events_fan_out',
    async up(knex) {
      // The outbox fans out where events are written, whatever statement writes them: one pending delivery per active
      // webhook of the merchant subscribed to the kind, and a NOTIFY that reaches listening dispatchers on commit.
      await knex.raw(`
        CREATE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO webhook_deliveries (id, merchant_id, webhook_id, event_id, event_kind, status, attempts, next_attempt_at, created_at)
          SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.merchant_id, w.id, e.id, e.kind, 'pending', 0, e.created_at, e.created_at
          FROM new_events e
          JOIN webhooks w ON w.merchant_id = e.merchant_id AND w.status = 'active' AND w.deleted_at IS NULL AND w.events @> jsonb_build_array(e.kind);
          IF FOUND THEN
            PERFORM pg_notify('${deliveriesChannel}', '');
          END IF;
          RETURN NULL;
        END $$`);
      await knex.raw(`CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
        FOR EACH STATEMENT EXECUTE FUNCTION events_fan_out()`);
    },
  },
  balanceMigration,
  { name: 'v11_bank_connection', up: bankConnectionTables },
  webhooksSelfServiceMigration,
  {
    name: 'v11_api_keys',
    async up(knex) {
      // Several keys per merchant: each may expire (a rolled key's predecessor) or be revoked; last use is batched.
      await knex.schema.alterTable('api_keys', (t) => {
        t.text('key_last4'); // null for keys issued before v1.1: only their hash was kept
        t.timestamp('expires_at', { useTz: true });
        t.timestamp('revoked_at', { useTz: true });
        t.timestamp('last_used_at', { useTz: true });
        t.index(['merchant_id', 'created_at'], 'api_keys_by_merchant');
      });
    },
  },
  {
    name: 'v11_checkout',
    async up(knex) {
      await knex.schema.alterTable('qr_codes', (t) => t.text('return_url'));
      // Open checkout pages follow their payment through one LISTEN per server, told on commit which QR code changed.
      await knex.raw(`
        CREATE FUNCTION payment_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${paymentStatusChannel}', NEW.qr_code_id);
          RETURN NULL;
        END $$`);
      await knex.raw(`CREATE TRIGGER payment_status_notify AFTER UPDATE OF status ON payments
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.qr_code_id IS NOT NULL) EXECUTE FUNCTION payment_status_notify()`);
    },
  },
  v11HotPath,
  v11LeanWrites,
  v11CountChanges,
];

const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => ({ up: migration.up, down: async () => undefined }),
};

/** Safe with several instances starting at once: a loser of knex's migration lock waits and re-checks. */
export async function migrateToLatest(knex: Knex): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await knex.migrate.latest({ migrationSource });
      return;
    } catch (error) {
      const locked = error instanceof Error && /already locked|knex_migrations_lock|duplicate key|already exists/i.test(error.message);
      if (!locked || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
