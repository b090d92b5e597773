import type { Knex } from 'knex';

/** v1.1: several keys per merchant, each may expire or be revoked; last use kept. */
export async function up(knex: Knex): Promise<void> {
  // Several keys per merchant: each may expire (a rolled key's predecessor) or be revoked; last use is batched.
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('key_last4'); // null for keys issued before v1.1: only their hash was kept
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.index(['merchant_id', 'created_at'], 'api_keys_by_merchant');
  });
}
