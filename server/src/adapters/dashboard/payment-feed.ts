import { merchantOfQrCode } from '../../app/queries.js';
import type { Services } from '../../app/services.js';
import type { PaymentStatusChanges } from '../../ports/payment-status.js';

export interface MerchantPaymentFeed {
  /** Calls `onChange` whenever one of the merchant's payments changes, until the returned function is called. */
  watch(merchantId: string, onChange: () => void): Promise<() => void>;
  /** Registers a stream's `end`, called when the feed closes; returns the function that unregisters it. */
  endOnClose(end: () => void): () => void;
  /** Ends every open stream (before the HTTP server closes) and stops listening. */
  close(): Promise<void>;
}

/**
 * The dashboard's live lists, on the notifications the checkout pages follow: a change names a QR code, which is
 * looked up once (only while someone watches) and told to every page watching its merchant.
 */
export function merchantPaymentFeed(s: Services, changes: PaymentStatusChanges, onError: (error: unknown) => void): MerchantPaymentFeed {
  const watching = new Map<string, Set<() => void>>();
  const closers = new Set<() => void>();
  let unsubscribe: Promise<() => Promise<void>> | null = null;

  const tell = (merchantId: string) => watching.get(merchantId)?.forEach((onChange) => onChange());
  const onQrCode = async (qrCodeId: string) => {
    try {
      const merchantId = await merchantOfQrCode(s, qrCodeId);
      if (merchantId) tell(merchantId);
    } catch (error) {
      onError(error);
    }
  };
  const onNotification = (qrCodeId: string | null) => {
    if (watching.size === 0) return;
    if (qrCodeId) void onQrCode(qrCodeId);
    else for (const merchantId of watching.keys()) tell(merchantId); // changes may have been missed
  };

  return {
    async watch(merchantId, onChange) {
      unsubscribe ??= changes.subscribe(onNotification).catch((error: unknown) => {
        unsubscribe = null;
        throw error;
      });
      await unsubscribe;
      const listeners = watching.get(merchantId) ?? new Set();
      watching.set(merchantId, listeners.add(onChange));
      return () => {
        listeners.delete(onChange);
        if (listeners.size === 0) watching.delete(merchantId);
      };
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
