import type { Refund, RefundStatus } from '../domain/refund.js';

/** The customer's bank, which sends a refund back to the payer. The sandbox settles at once. */
export interface CustomerBank {
  sendRefund(refund: Refund): Promise<RefundStatus>;
}
