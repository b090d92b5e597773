import type { Knex } from 'knex';

/**
 * v1.3, in person: tills. A till's static QR is a QR code row without a payment or an expiry (its bank reference is the
 * till's reference, so the unique index on bank_reference keeps it apart from every payment's); payments and QR codes
 * name the till they were taken at. The display's token is looked up by its hash.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tills', (t) => {
    t.text('id').primary();
    t.text('merchant_id').notNullable().references('merchants.id');
    t.text('name').notNullable();
    t.text('status').notNullable();
    t.text('reference').notNullable().unique();
    t.text('display_token').notNullable();
    t.text('display_token_hash').notNullable().unique();
    t.text('static_qr_code_id').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('closed_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX tills_by_merchant ON tills (merchant_id, created_at DESC, id DESC)');
  await knex.raw("CREATE INDEX tills_active ON tills (merchant_id) WHERE status = 'active'");
  await knex.raw('ALTER TABLE qr_codes ALTER COLUMN payment_id DROP NOT NULL');
  await knex.raw('ALTER TABLE qr_codes ALTER COLUMN expires_at DROP NOT NULL');
  await knex.raw('ALTER TABLE qr_codes ADD COLUMN till_id text');
  await knex.raw('ALTER TABLE payments ADD COLUMN till_id text');
  await knex.raw('CREATE INDEX payments_by_till ON payments (merchant_id, till_id, created_at DESC, id DESC) WHERE till_id IS NOT NULL');
}
