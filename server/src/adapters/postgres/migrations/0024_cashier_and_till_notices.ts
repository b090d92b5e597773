import type { Knex } from 'knex';

/**
 * v1.3, in person: the cashier, a sixth role which only takes payments at a till (Receive); and the customer displays
 * told of their till on the channel the checkout pages follow (a till's id, where
 * a checkout page hears a QR code's).
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['memberships', 'invitations']) {
    await knex.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_role_check`);
    await knex.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_role_check
        CHECK (role IN ('owner', 'admin', 'developer', 'support', 'viewer', 'cashier'))`);
  }
  // The customer displays follow their till on the channel the checkout pages follow, told the till's id: a payment
  // born at a till (pending from Receive, succeeded from its static QR), and a till closed or its display URL rolled.
  await knex.raw(`CREATE FUNCTION till_payment_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('payment_status', NEW.till_id);
          RETURN NULL;
        END $$`);
  await knex.raw(`CREATE TRIGGER till_payment_notify AFTER INSERT ON payments
        FOR EACH ROW WHEN (NEW.till_id IS NOT NULL) EXECUTE FUNCTION till_payment_notify()`);
  await knex.raw(`CREATE FUNCTION till_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('payment_status', NEW.id);
          RETURN NULL;
        END $$`);
  await knex.raw(`CREATE TRIGGER till_change_notify AFTER UPDATE ON tills
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.display_token_hash IS DISTINCT FROM NEW.display_token_hash)
        EXECUTE FUNCTION till_change_notify()`);
}
