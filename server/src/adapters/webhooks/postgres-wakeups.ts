import pg from 'pg';
import { deliveriesChannel, type DeliveryWakeups } from '../../ports/webhook-delivery.js';

const RECONNECT_MS = 1_000;

/**
 * LISTEN on a dedicated connection: every committed transaction that queued deliveries wakes every dispatcher.
 * A lost connection is re-opened, with a wake-up on reconnect for whatever was notified meanwhile.
 */
export function postgresDeliveryWakeups(databaseUrl: string, onError: (error: unknown) => void = () => undefined): DeliveryWakeups {
  return {
    async subscribe(onWake) {
      let stopped = false;
      let client: pg.Client | null = null;
      let retry: NodeJS.Timeout | undefined;

      const reconnectLater = (lost: pg.Client) => {
        if (stopped || client !== lost) return;
        client = null;
        lost.end().catch(() => undefined);
        retry = setTimeout(() => void connect(), RECONNECT_MS);
      };

      async function connect(): Promise<void> {
        const candidate = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
        client = candidate;
        candidate.on('notification', () => onWake());
        candidate.on('error', (error) => {
          onError(error);
          reconnectLater(candidate);
        });
        candidate.on('end', () => reconnectLater(candidate));
        try {
          await candidate.connect();
          await candidate.query(`LISTEN ${deliveriesChannel}`);
          if (stopped) await candidate.end();
          else onWake();
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
