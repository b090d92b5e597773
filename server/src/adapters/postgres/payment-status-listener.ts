import type { Knex } from 'knex';
import pg from 'pg';
import { paymentStatusChannel, type PaymentStatusChanges } from '../../ports/payment-status.js';

const RECONNECT_MS = 1_000;

/**
 * One LISTEN connection per server, whatever the number of open checkout pages. A lost connection is re-opened, and
 * the reconnect is reported as `null` (changes may have been missed meanwhile).
 */
export function postgresPaymentStatusChanges(databaseUrl: string, onError: (error: unknown) => void = () => undefined): PaymentStatusChanges {
  return {
    async subscribe(onChange) {
      let stopped = false;
      let client: pg.Client | null = null;
      let retry: NodeJS.Timeout | undefined;
      let connectedBefore = false;

      const reconnectLater = (lost: pg.Client) => {
        if (stopped || client !== lost) return;
        client = null;
        lost.end().catch(() => undefined);
        retry = setTimeout(() => void connect(), RECONNECT_MS);
      };

      async function connect(): Promise<void> {
        const candidate = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
        client = candidate;
        candidate.on('notification', (message) => onChange(message.payload || null));
        candidate.on('error', (error) => {
          onError(error);
          reconnectLater(candidate);
        });
        candidate.on('end', () => reconnectLater(candidate));
        try {
          await candidate.connect();
          await candidate.query(`LISTEN ${paymentStatusChannel}`);
          if (stopped) await candidate.end();
          else if (connectedBefore) onChange(null);
          connectedBefore = true;
        } catch (error) {
          onError(error);
          reconnectLater(candidate);
        }
      }

      await connect();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        await client?.end().catch(() => undefined);
      };
    },
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
