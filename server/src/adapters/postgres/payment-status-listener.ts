import type { Knex } from 'knex';
import { paymentStatusChannel, type PaymentStatusChanges } from '../../ports/payment-status.js';
import { listen } from './listen.js';

/**
 * One LISTEN connection per server, whatever the number of open checkout pages. A lost connection is re-opened, and
 * the reconnect is reported as `null` (changes may have been missed meanwhile).
 */
export function postgresPaymentStatusChanges(databaseUrl: string, onError: (error: unknown) => void = () => undefined): PaymentStatusChanges {
  return {
    subscribe: (onChange) =>
      listen(databaseUrl, paymentStatusChannel, {
        onNotify: (payload) => onChange(payload || null),
        onListening: (reconnected) => {
          if (reconnected) onChange(null);
        },
        onError,
      }),
  };
}

interface NotifyingDatabase {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** The embedded PGlite delivers NOTIFY in-process on commit; knex-pglite keeps its one instance on the knex client. */
export function embeddedPaymentStatusChanges(knex: Knex): PaymentStatusChanges {
  return {
    async subscribe(onChange) {
      const database = (knex.client as { pglite?: NotifyingDatabase }).pglite;
      if (!database) return async () => undefined; // pages still poll
      const unlisten = await database.listen(paymentStatusChannel, (payload) => onChange(payload || null));
      return () => unlisten().catch(() => undefined);
    },
  };
}
