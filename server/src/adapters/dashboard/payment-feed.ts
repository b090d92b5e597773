import { merchantOfQrCode } from '../../app/queries.js';
import type { Services } from '../../app/services.js';
import type { PaymentStatusChanges } from '../../ports/payment-status.js';
import { statusWatchers } from '../pages/status-watchers.js';

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
  const tell = (merchantId: string) => pages.listenersOf(merchantId)?.forEach((onChange) => onChange());
  const onQrCode = async (qrCodeId: string) => {
    try {
      const merchantId = await merchantOfQrCode(s, qrCodeId);
      if (merchantId) tell(merchantId);
    } catch (error) {
      onError(error);
    }
  };
  const pages = statusWatchers<() => void>(changes, (qrCodeId) => {
    if (pages.count === 0) return;
    if (qrCodeId) void onQrCode(qrCodeId);
    else for (const merchantId of pages.keys()) tell(merchantId); // changes may have been missed
  });
  return pages;
}
