import type { PaymentStatusChanges } from '../../ports/payment-status.js';

/** The pages watching payment status changes, by what each watches (a QR code, a merchant). */
export interface StatusWatchers<Listener> {
  /** Adds `listener` to those watching `key` until the returned function is called. */
  watch(key: string, listener: Listener): Promise<() => void>;
  /** Who watches `key` now (none: undefined). */
  listenersOf(key: string): ReadonlySet<Listener> | undefined;
  /** Every key watched now. */
  keys(): Iterable<string>;
  /** How many are watching. */
  readonly count: number;
  /** Registers a stream's `end`, called on close; returns the function that unregisters it. */
  endOnClose(end: () => void): () => void;
  /** Ends every open stream (before the HTTP server closes, which they would hold open), and stops listening. */
  close(): Promise<void>;
}

/**
 * One subscription to the database's notifications for the whole server, opened when the first page watches:
 * `onChange` hears each change (the QR code it names; null: changes may have been missed) and tells the pages.
 */
export function statusWatchers<Listener>(changes: PaymentStatusChanges, onChange: (qrCodeId: string | null) => void): StatusWatchers<Listener> {
  const watching = new Map<string, Set<Listener>>();
  const closers = new Set<() => void>();
  let unsubscribe: Promise<() => Promise<void>> | null = null;
  let count = 0;

  return {
    async watch(key, listener) {
      unsubscribe ??= changes.subscribe(onChange).catch((error: unknown) => {
        unsubscribe = null; // the next page tries again
        throw error;
      });
      await unsubscribe;
      const listeners = watching.get(key) ?? new Set();
      watching.set(key, listeners.add(listener));
      count++;
      return () => {
        if (!listeners.delete(listener)) return;
        count--;
        if (listeners.size === 0) watching.delete(key);
      };
    },
    listenersOf: (key) => watching.get(key),
    keys: () => watching.keys(),
    get count() {
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
