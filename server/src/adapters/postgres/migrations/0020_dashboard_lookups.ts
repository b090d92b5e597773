import type { Knex } from 'knex';

/**
 * v1.2, the dashboard's lookups at a million payments: a payment found by its exact reference, the refunds of one
 * payment, and the events (so the webhook deliveries) of one payment for its timeline. Each replaces a scan of the
 * merchant's rows; the events index reads the payment id out of the stored payload, so no write changes; not
 * payment.pending, which every QR creation writes (the timeline finds that one by kind and time).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX payments_by_reference ON payments (merchant_id, reference) WHERE reference IS NOT NULL');
  await knex.raw('CREATE INDEX refunds_by_payment ON refunds (payment_id)');
  await knex.raw(`CREATE INDEX events_by_payment ON events ((((payload)::json -> 'data') ->> 'payment_id'))
        WHERE (kind LIKE 'payment.%' OR kind LIKE 'refund.%') AND kind <> 'payment.pending'`);
}
