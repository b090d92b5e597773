import type { Satang } from '../domain/money.js';
import type { PayoutAccount } from '../domain/payout-account.js';
import type { Failure } from '../domain/withdrawal.js';

/** One transfer out: a withdrawal to the merchant, or a live refund back to the payer. */
export interface PayoutTransfer {
  id: string;
  amount: Satang;
  destination: PayoutAccount;
}

export type RailOutcome = { status: 'succeeded' } | { status: 'failed'; failure: Failure };

/** A rail the service drives itself (the sandbox): it takes a transfer, then later reports its outcome. */
export interface AutomatedPayoutRail {
  /** Hands the transfer to the bank: `processed`, or refused at once. */
  submit(transfer: PayoutTransfer): Promise<{ status: 'processed' } | { status: 'failed'; failure: Failure }>;
  /** The bank's outcome of a transfer it took; null while it is still under way. */
  outcome(transfer: PayoutTransfer): Promise<RailOutcome | null>;
}

/** The bulk-transfer rail: a file the operator uploads to the bank, whose outcomes the operator records. */
export interface BulkTransferFile {
  render(transfers: readonly PayoutTransfer[]): string;
}
