import type { Knex } from 'knex';

/**
 * v1.3, a key never has more power than the member who made it: each key records the dashboard member who made it
 * (null: the operator's CLI, or a key made before v1.3), and an audit entry of a key's use names that member beside
 * the key (their id and e-mail address at the time).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE api_keys ADD COLUMN created_by_user_id text REFERENCES users(id)');
  await knex.raw('ALTER TABLE audit_entries ADD COLUMN actor_key_maker_id text, ADD COLUMN actor_key_maker_label text');
}
