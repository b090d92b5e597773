import type { Knex } from 'knex';
import { deliveriesChannel, type DeliveryWakeups } from '../../ports/webhook-delivery.js';

interface NotifyingDatabase {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * The embedded PGlite delivers NOTIFY in-process when the notifying transaction commits, just as PostgreSQL does
 * to a LISTEN connection. knex-pglite keeps its one PGlite instance on the knex client.
 */
export function embeddedDeliveryWakeups(knex: Knex): DeliveryWakeups {
  return {
    async subscribe(onWake) {
      const database = (knex.client as { pglite?: NotifyingDatabase }).pglite;
      if (!database) return async () => undefined; // polling alone still delivers
      const unlisten = await database.listen(deliveriesChannel, () => onWake());
      return () => unlisten().catch(() => undefined);
    },
  };
}
