import type { DeliveryStatus } from '../domain/webhook.js';

/** How a confirmation from the bank ended (see "The bank connection"). */
export type BankConfirmationOutcome = 'applied' | 'duplicate' | 'unmatched' | 'not_listed' | 'bank_unreachable' | 'rejected';

/**
 * Operational counters that use cases and adapters report to, for /metrics. Reports are fire-and-forget and cost a
 * few nanoseconds; a deployment without metrics gets `silentMetrics`.
 */
export interface OperationalMetrics {
  /** A payment row was committed (`method`: how it is paid). */
  paymentCreated(method: 'qr' | 'card'): void;
  /** A payment reached a final state, as its committed event announced. */
  paymentCompleted(status: 'succeeded' | 'failed' | 'expired'): void;
  /** A webhook delivery attempt was recorded: `delivered`, `pending` (to be retried) or `failed` (gave up). */
  webhookAttempt(outcome: DeliveryStatus): void;
  /** The bank's confirmation callback or a reconciliation pass found this for one bank transaction. */
  bankConfirmation(outcome: BankConfirmationOutcome): void;
  /** Money the bank received that fits no payment was recorded as an unmatched bank transaction. */
  unmatchedBankTransaction(reason: string, amountSatang: number): void;
  /** A QR code image was served: drawn for the request, or kept from an earlier drawing (`cache`). */
  qrImage(source: 'drawn' | 'cache'): void;
}

const ignore = (): void => undefined;

export const silentMetrics: OperationalMetrics = {
  paymentCreated: ignore,
  paymentCompleted: ignore,
  webhookAttempt: ignore,
  bankConfirmation: ignore,
  unmatchedBankTransaction: ignore,
  qrImage: ignore,
};
