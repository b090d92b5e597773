import type { Knex } from 'knex';

/**
 * v1.3, the cashier: a sixth role, which only takes payments at a till (the Receive page). Members and invitations
 * may hold it.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['memberships', 'invitations']) {
    await knex.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_role_check`);
    await knex.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_role_check
        CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer', 'cashier'))`);
  }
}
