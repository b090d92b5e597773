import { retrieveCheckoutState, type CheckoutState } from '../../app/checkout.js';
import type { Services } from '../../app/services.js';
import type { PaymentStatusChanges } from '../../ports/payment-status.js';

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
  const watching = new Map<string, Set<StatusListener>>();
  const closers = new Set<() => void>();
  let unsubscribe: Promise<() => Promise<void>> | null = null;
  let count = 0;

  const refresh = async (qrCodeId: string) => {
    const listeners = watching.get(qrCodeId);
    if (!listeners) return;
    try {
      const state = await retrieveCheckoutState(s, qrCodeId);
      for (const listener of listeners) listener(state);
    } catch (error) {
      onError(error);
    }
  };
  const onChange = (qrCodeId: string | null) => {
    if (qrCodeId) void refresh(qrCodeId);
    else for (const id of watching.keys()) void refresh(id);
  };

  return {
    async watch(qrCodeId, listener) {
      unsubscribe ??= changes.subscribe(onChange).catch((error: unknown) => {
        unsubscribe = null; // the next page tries again
        throw error;
      });
      await unsubscribe;
      const listeners = watching.get(qrCodeId) ?? new Set();
      watching.set(qrCodeId, listeners.add(listener));
      count++;
      return () => {
        if (!listeners.delete(listener)) return;
        count--;
        if (listeners.size === 0) watching.delete(qrCodeId);
      };
    },
    get watchers() {
      return count;
    },
    endOnClose(end) {
      closers.add(end);
      return () => closers.delete(end);
    },
    async close() {
      for (const end of closers) end();
      closers.clear();
      const stop = await unsubscribe;
      unsubscribe = null;
      await stop?.();
    },
  };
}
