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

/**
 * One subscription for every reader in the server (the checkout pages and the dashboard's live lists): the first
 * subscriber opens it, the last one to leave closes it, and each change is handed to all of them.
 */
export function sharedPaymentStatusChanges(changes: PaymentStatusChanges): PaymentStatusChanges {
  const readers = new Set<(qrCodeId: string | null) => void>();
  let opened: Promise<() => Promise<void>> | null = null;
  return {
    async subscribe(onChange) {
      opened ??= changes
        .subscribe((qrCodeId) => readers.forEach((reader) => reader(qrCodeId)))
        .catch((error: unknown) => {
          opened = null; // the next subscriber tries again
          throw error;
        });
      await opened;
      const reader = (qrCodeId: string | null) => onChange(qrCodeId);
      readers.add(reader);
      return async () => {
        if (!readers.delete(reader) || readers.size > 0 || !opened) return;
        const closing = opened;
        opened = null; // a subscriber arriving meanwhile opens a new one
        await (
          await closing
        )();
      };
    },
  };
}
