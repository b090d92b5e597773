import type { Knex } from 'knex';

/** v1: merchants, keys, payments, QR codes, refunds, transactions, idempotency keys. */
export async function up(knex: Knex): Promise<void> {
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
}
