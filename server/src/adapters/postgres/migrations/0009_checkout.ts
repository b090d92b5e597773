import type { Knex } from 'knex';

/** v1.1: the checkout page's return URL, and a NOTIFY when a QR code's payment changes status. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('qr_codes', (t) => t.text('return_url'));
  // Open checkout pages follow their payment through one LISTEN per server, told on commit which QR code changed.
  await knex.raw(`
        CREATE FUNCTION payment_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('payment_status', NEW.qr_code_id);
          RETURN NULL;
        END $$`);
  await knex.raw(`CREATE TRIGGER payment_status_notify AFTER UPDATE OF status ON payments
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.qr_code_id IS NOT NULL) EXECUTE FUNCTION payment_status_notify()`);
}
