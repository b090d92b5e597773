import type { BankTransaction } from '../domain/bank-transaction.js';
import type { Refund, RefundStatus } from '../domain/refund.js';

/** The customer's bank, which sends a refund back to the payer. The sandbox settles at once. */
export interface CustomerBank {
  sendRefund(refund: Refund): Promise<RefundStatus>;
}

/** The deployment's live bank connection: the bank that receives live QR payments into the operator's biller account. */
export interface BankConnection {
  /** The biller account every live QR code pays into. */
  readonly billerId: string;
  /** The paid transactions the bank lists for a ref1 on a date in Asia/Bangkok (YYYY-MM-DD); none: []. */
  listPaid(ref1: string, date: string): Promise<BankTransaction[]>;
}

/** The bank could not answer (down, timed out, refused us): ask again later, nothing is concluded. */
export class BankUnavailableError extends Error {
  override readonly name = 'BankUnavailableError';
}
