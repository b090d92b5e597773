import type { BalanceTotals, Draw, DrawMade, LedgerEntry, LedgerEntryType, PendingCredit } from '../domain/balance.js';
import type { Mode } from '../domain/merchant.js';
import type { DateRange, Page, PageRequest } from '../domain/page.js';
import type { PayoutAccount } from '../domain/payout-account.js';
import type { Refund } from '../domain/refund.js';
import type { Withdrawal, WithdrawalStatus } from '../domain/withdrawal.js';

export interface LedgerFilter extends DateRange {
  type?: LedgerEntryType;
}

/** The append-only ledger and the running totals kept beside it, in the same transaction. */
export interface BalanceRepository {
  /** The merchant's totals, locked until the transaction ends (the row is made on first use). */
  lock(merchantId: string): Promise<BalanceTotals>;
  /** The stored totals and what is left of the pending credits matured by `now` (net less draws), read together without a lock. */
  read(merchantId: string, now: Date): Promise<{ totals: BalanceTotals; maturedNet: number }>;
  /** Adds to the running totals (a credit needs no lock: concurrent increments commute). */
  adjust(merchantId: string, delta: BalanceTotals): Promise<void>;
  /** Appends an entry unless one of the same type and source exists; says whether it did (nothing applied twice). */
  append(entry: LedgerEntry, settled: boolean): Promise<boolean>;
  /** Merchants with pending entries whose `available_on` has passed (found in the partial index of unsettled entries). */
  merchantsWithMatured(now: Date, limit: number): Promise<string[]>;
  /** Marks pending credits whose `available_on` has passed settled, and answers what is left of them (net less draws). */
  settleMatured(merchantId: string, now: Date): Promise<number>;
  /** The payment's credit while it is not settled yet, with what draws left of it (call with the balance locked and matured). */
  pendingCreditOf(paymentId: string): Promise<PendingCredit | null>;
  /** The merchant's other unsettled credits with something left, latest-maturing first, as many as cover `atLeast`. */
  pendingCreditsLatestFirst(merchantId: string, atLeast: number, exceptCreditId: string | null): Promise<PendingCredit[]>;
  /** Records which credits a ledger entry drew on (or gave back to), in the entry's transaction. */
  recordDraws(entryId: string, draws: readonly Draw[]): Promise<void>;
  /** What a refund drew from pending credits, and whether each credit is still unsettled. */
  drawsOfRefund(refundId: string): Promise<DrawMade[]>;
  /** Links the settled entries no withdrawal paid out yet to this one; `unlinkWithdrawal` undoes it when it fails. */
  linkToWithdrawal(merchantId: string, withdrawalId: string): Promise<void>;
  unlinkWithdrawal(withdrawalId: string): Promise<void>;
  list(merchantId: string, filter: LedgerFilter, page: PageRequest): Promise<Page<LedgerEntry>>;
}

export interface WithdrawalFilter extends DateRange {
  status?: WithdrawalStatus;
}

export interface WithdrawalRepository {
  insert(withdrawal: Withdrawal): Promise<void>;
  update(withdrawal: Withdrawal): Promise<void>;
  findById(merchantId: string, id: string): Promise<Withdrawal | null>;
  /** The operator's lookup, by id alone, locked until the transaction ends. */
  lockById(id: string): Promise<Withdrawal | null>;
  list(merchantId: string, filter: WithdrawalFilter, page: PageRequest): Promise<Page<Withdrawal>>;
  /** Unfinished withdrawals of that mode, oldest change first, locked and skipped by concurrent workers. */
  lockInFlight(mode: Mode, statuses: readonly WithdrawalStatus[], limit: number): Promise<Withdrawal[]>;
}

/** A live refund paid back through the payout rail, with where it goes. */
export interface RefundPayout {
  refund: Refund;
  destination: PayoutAccount;
  exported: boolean;
}

export interface RefundPayoutRepository {
  /** Records where a live refund is paid back to; it waits for the next export. */
  recordDestination(refundId: string, destination: PayoutAccount): Promise<void>;
  /** Pending live refunds not exported yet, locked and skipped by a concurrent export. */
  lockUnexported(limit: number): Promise<RefundPayout[]>;
  markExported(refundIds: readonly string[], at: Date): Promise<void>;
  lockById(refundId: string): Promise<RefundPayout | null>;
  setStatus(refundId: string, status: Refund['status']): Promise<void>;
}

export interface PayoutAccountStore {
  setPayoutAccount(merchantId: string, account: PayoutAccount): Promise<boolean>;
  setFeeBps(merchantId: string, feeBps: number): Promise<boolean>;
}
