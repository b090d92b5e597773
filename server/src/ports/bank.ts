import type { BankTransaction } from '../domain/bank-transaction.js';
import type { Refund } from '../domain/refund.js';

/** What the customer's bank did with a refund. */
export type RefundOutcome = 'succeeded' | 'failed';

/**
 * The customer's bank, which sends a test refund back to the payer (the sandbox settles at once). It is called only
 * after the refund has committed, with no lock held; a throw means the bank did not take the refund: it fails.
 */
export interface CustomerBank {
  sendRefund(refund: Refund): Promise<RefundOutcome>;
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
