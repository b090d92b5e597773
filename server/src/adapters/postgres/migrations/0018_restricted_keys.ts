import type { Knex } from 'knex';

/**
 * v1.2, restricted API keys: a key may hold a list of permissions (`["qr_codes:write","payments:read"]`); null keeps
 * what every key was before, an unrestricted key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.jsonb('permissions'); // null: unrestricted
  });
  await knex.raw(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_permissions_listed
        CHECK (permissions IS NULL OR (jsonb_typeof(permissions) = 'array' AND jsonb_array_length(permissions) > 0))`);
}
