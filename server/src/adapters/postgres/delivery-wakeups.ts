import { deliveriesChannel, type DeliveryWakeups } from '../../ports/webhook-delivery.js';
import { listen } from './listen.js';

/**
 * LISTEN on a dedicated connection: every committed transaction that queued deliveries wakes every dispatcher.
 * A lost connection is re-opened, with a wake-up on (re)connect for whatever was notified meanwhile.
 */
export function postgresDeliveryWakeups(databaseUrl: string, onError: (error: unknown) => void = () => undefined): DeliveryWakeups {
  return {
    subscribe: (onWake) => listen(databaseUrl, deliveriesChannel, { onNotify: () => onWake(), onListening: () => onWake(), onError }),
  };
}
