import type { Knex } from 'knex';

/**
 * Webhook bounds. Secrets: each rotation keeps the secret it replaces signing until its own expiry, so a webhook has a
 * few earlier secrets (a table of them, newest first by `retired_at`) instead of one previous secret. Deliveries: an
 * attempt in flight is marked by its lease (`leased_until`), and a redelivery asked for meanwhile waits for it
 * (`redeliver_requested`) instead of sending the event a second time at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE webhook_earlier_secrets (
      webhook_id text NOT NULL REFERENCES webhooks(id),
      secret text NOT NULL,
      retired_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (webhook_id, secret))`);
  await knex.raw('CREATE INDEX webhook_earlier_secrets_by_expiry ON webhook_earlier_secrets (expires_at)');
  // The one previous secret a webhook may have: when it was replaced is not known, and now() orders it before any later rotation.
  await knex.raw(`
    INSERT INTO webhook_earlier_secrets (webhook_id, secret, retired_at, expires_at)
    SELECT id, previous_secret, now(), previous_secret_expires_at FROM webhooks
    WHERE previous_secret IS NOT NULL AND previous_secret_expires_at > now()`);
  await knex.raw('ALTER TABLE webhooks DROP COLUMN previous_secret, DROP COLUMN previous_secret_expires_at');

  await knex.raw('ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz, ADD COLUMN redeliver_requested boolean NOT NULL DEFAULT false');
}
