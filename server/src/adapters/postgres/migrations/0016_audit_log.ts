import type { Knex } from 'knex';

/**
 * v1.2, the audit log: who did what to a merchant's money, keys, webhooks and team, through the dashboard, the API or
 * the CLI. Written in the transaction of the action it records; append-only (a trigger refuses any change).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_entries', (t) => {
    t.text('id').primary();
    t.text('merchant_id'); // null: belongs to no merchant (a failed sign-in for an unknown address)
    t.text('actor_kind').notNullable(); // 'user', 'api_key' or 'operator'
    t.text('actor_id'); // the user's or the key's id
    t.text('actor_label'); // the user's e-mail address, or the key's last four characters
    t.text('channel').notNullable(); // 'dashboard', 'api' or 'cli'
    t.text('client_address');
    t.text('action').notNullable();
    t.text('subject_id');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX audit_entries_by_merchant ON audit_entries (merchant_id, created_at DESC, id DESC)');
  await knex.raw(`
        CREATE OR REPLACE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'audit entries are never changed or deleted' USING ERRCODE = 'insufficient_privilege';
        END $$`);
  await knex.raw(`CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
        FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`);
  await knex.raw(`CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
        FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`);
}
