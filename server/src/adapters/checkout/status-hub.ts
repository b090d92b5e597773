import { retrieveCheckoutState, type CheckoutState } from '../../app/checkout.js';
import type { Services } from '../../app/services.js';
import type { PaymentStatusChanges } from '../../ports/payment-status.js';
import { statusWatchers } from '../pages/status-watchers.js';

export type StatusListener = (state: CheckoutState) => void;

export interface CheckoutStatusHub {
  /** Calls `listener` with each new state of the QR code's checkout until the returned function is called. */
  watch(qrCodeId: string, listener: StatusListener): Promise<() => void>;
  /** How many pages are watching (for measurements). */
  readonly watchers: number;
  /** Registers a stream's `end`, called when the hub closes; returns the function that unregisters it. */
  endOnClose(end: () => void): () => void;
  /** Ends every open stream (before the HTTP server closes, which they would hold open), and stops listening. */
  close(): Promise<void>;
}

/**
 * One subscription to the database's notifications for the whole server, opened when the first page watches: each
 * change is read ONCE and fanned out to every page watching that QR code. No page holds a database connection.
 */
export function checkoutStatusHub(s: Services, changes: PaymentStatusChanges, onError: (error: unknown) => void): CheckoutStatusHub {
  const refresh = async (qrCodeId: string) => {
    const listeners = pages.listenersOf(qrCodeId);
    if (!listeners) return;
    try {
      const state = await retrieveCheckoutState(s, qrCodeId);
      for (const listener of listeners) listener(state);
    } catch (error) {
      onError(error);
    }
  };
  const pages = statusWatchers<StatusListener>(changes, (qrCodeId) => {
    if (qrCodeId) void refresh(qrCodeId);
    else for (const id of pages.keys()) void refresh(id);
  });

  return {
    watch: pages.watch,
    get watchers() {
      return pages.count;
    },
    endOnClose: pages.endOnClose,
    close: pages.close,
  };
}
