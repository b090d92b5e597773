import { tillOfQrCode } from '../../app/till-counter.js';
import type { Services } from '../../app/services.js';
import type { PaymentStatusChanges } from '../../ports/payment-status.js';
import { statusWatchers, type StatusWatchers } from '../pages/status-watchers.js';

/** An open display, told that something of its till changed (a payment, or the till itself: closed, URL rolled). */
export type TillChangeListener = () => void;

export type TillDisplayHub = Pick<StatusWatchers<TillChangeListener>, 'watch' | 'count' | 'endOnClose' | 'close'>;

/** A till's own notices (a payment born there, the till closed or its URL rolled) name the till, not a QR code. */
const isTillId = (id: string) => id.startsWith('till_');

/**
 * The customer displays on the notifications the checkout pages follow (one subscription per server): a change names
 * a till, or a QR code whose till is looked up once (only while some display watches); every display of that till
 * is told.
 */
export function tillDisplayHub(s: Services, changes: PaymentStatusChanges, onError: (error: unknown) => void): TillDisplayHub {
  const tell = (tillId: string) => displays.listenersOf(tillId)?.forEach((onChange) => onChange());
  const onChange = async (changed: string) => {
    try {
      const tillId = isTillId(changed) ? changed : await tillOfQrCode(s, changed);
      if (tillId) tell(tillId);
    } catch (error) {
      onError(error);
    }
  };
  const displays = statusWatchers<TillChangeListener>(changes, (qrCodeId) => {
    if (displays.count === 0) return;
    if (qrCodeId) void onChange(qrCodeId);
    else for (const tillId of displays.keys()) tell(tillId); // changes may have been missed
  });
  return displays;
}
