import type { Knex } from 'knex';

/** v1: webhooks, the events outbox and its deliveries. */
export async function up(knex: Knex): Promise<void> {
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
}
