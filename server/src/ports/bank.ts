import type { BankTransaction } from '../domain/bank-transaction.js';
import type { Refund } from '../domain/refund.js';
import type { SlipQr } from '../domain/slip-verification.js';

/** What the customer's bank did with a refund. */
export type RefundOutcome = 'succeeded' | 'failed';

/**
 * The customer's bank, which sends a test refund back to the payer (the sandbox settles at once). It is called only
 * after the refund has committed, with no lock held; a throw means the bank did not take the refund: it fails.
 */
export interface CustomerBank {
  sendRefund(refund: Refund): Promise<RefundOutcome>;
}

/** A bank that answers for the slips of transfers it received: live, the SCB connection; test, the sandbox bank. */
export interface SlipBank {
  /** The biller account QR codes of this mode pay into. */
  readonly billerId: string;
  /**
   * The transaction a slip names, as the receiving bank lists it (`billerId`: the receiver's proxy); null when the bank
   * knows no such transaction. Throws BankUnavailableError when the bank cannot be asked.
   */
  lookUpSlip(slip: SlipQr): Promise<BankTransaction | null>;
}

/** The sandbox bank: it "received" every succeeded test payment, and writes the slip a payer's app would show for it. */
export interface SandboxSlipBank extends SlipBank {
  /** The slip of a test payment paid through the QR code carrying this bank reference. */
  slipOf(bankReference: string): SlipQr;
}

/** The deployment's live bank connection: the bank that receives live QR payments into the operator's biller account. */
export interface BankConnection extends SlipBank {
  /** The paid transactions the bank lists for a ref1 on a date in Asia/Bangkok (YYYY-MM-DD); none: []. */
  listPaid(ref1: string, date: string): Promise<BankTransaction[]>;
}

/** The bank could not answer (down, timed out, refused us): ask again later, nothing is concluded. */
export class BankUnavailableError extends Error {
  override readonly name = 'BankUnavailableError';
}

/** What a slip is shown as: the text of its mini QR, or a photo (PNG or JPEG bytes) of the slip. */
export type SlipInput = { payload: string } | { image: Buffer };

/** Reads and draws slips' mini QR codes. */
export interface SlipCodec {
  /**
   * The slip a payload or image names. Throws DomainError `invalid_slip` (not a slip QR, or its CRC fails),
   * `slip_unreadable` (no slip QR found in the image within the bounds), or `service_unavailable` (too many images
   * being read right now).
   */
  read(input: SlipInput): Promise<SlipQr>;
  /** The mini QR's text for a slip, and a PNG of a slip carrying it. */
  draw(slip: SlipQr): Promise<{ payload: string; image: Buffer }>;
}
