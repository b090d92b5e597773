import type { ApiKeyRecord } from '../domain/api-key.js';
import type { AccountRepositories } from './account-repositories.js';
import type { KeyMaker } from '../domain/audit.js';
import type { AuditEntry } from '../domain/audit.js';
import type { BankTransaction, UnmatchedBankTransaction, UnmatchedReason, UnmatchedResolution } from '../domain/bank-transaction.js';
import type { DomainEvent, EventKind, EventPayload } from '../domain/events.js';
import type { Merchant, Mode } from '../domain/merchant.js';
import type { Permission } from '../domain/permissions.js';
import type { DateRange, Page, PageRequest, Slice } from '../domain/page.js';
import type { Payment, PaymentStatus } from '../domain/payment.js';
import type { QrCode } from '../domain/qr-code.js';
import type { Refund } from '../domain/refund.js';
import type { SlipQr, SlipVerification } from '../domain/slip-verification.js';
import type { TestEvent } from '../domain/test-event.js';
import type { Till } from '../domain/till.js';
import type { Transaction, TransactionStatus, TransactionType } from '../domain/transaction.js';
import type { Delivery, Webhook } from '../domain/webhook.js';
import type { EarlierSecret } from '../domain/webhook-management.js';
import type { BalanceRepository, PayoutAccountStore, RefundPayoutRepository, WithdrawalRepository } from './ledger.js';
import type { ReportRepository, TaxInvoiceRepository } from './reports.js';

export interface MerchantRepository extends PayoutAccountStore {
  insert(merchant: Merchant, apiKey: NewApiKey): Promise<void>;
  /**
   * The merchant owning an API key that is not revoked, found by the key's SHA-256 hash; `keyHash` is returned for a
   * constant-time compare, `expiresAt` for the caller to judge against its clock.
   */
  findByApiKeyHash(hash: string): Promise<FoundApiKey | null>;
  findById(id: string): Promise<Merchant | null>;
  count(): Promise<number>;
}

export interface FoundApiKey {
  merchant: Merchant;
  keyHash: string;
  keyId: string;
  /** Null for keys issued before the last four were kept. */
  last4: string | null;
  expiresAt: Date | null;
  /** Null: an unrestricted key. */
  permissions: Permission[] | null;
  /** The dashboard member who made the key, named in the audit entries of its use; null: not made in the dashboard. */
  madeBy: KeyMaker | null;
}

export interface NewApiKey {
  id: string;
  hash: string;
  prefix: string;
  last4: string;
  /** Null or absent: an unrestricted key. */
  permissions?: Permission[] | null;
  /** The dashboard member who made it; null or absent: the operator (CLI), or the merchant's first key. */
  createdByUserId?: string | null;
}

export interface ApiKeyRepository {
  insert(merchantId: string, key: NewApiKey, createdAt: Date): Promise<void>;
  /** Every key of the merchant, revoked and expired ones too, newest first. */
  listByMerchant(merchantId: string): Promise<ApiKeyRecord[]>;
  setExpiry(id: string, expiresAt: Date): Promise<void>;
  revoke(id: string, at: Date): Promise<void>;
  /** Keeps the latest use of each key (a use older than the stored one changes nothing). */
  recordLastUse(uses: { keyId: string; at: Date }[]): Promise<void>;
}

export interface QrCodeRepository {
  insert(qrCode: QrCode): Promise<void>;
  /** QR codes are looked up without a merchant: their image is public and their id unguessable. */
  findById(id: string): Promise<QrCode | null>;
}

export interface PaymentFilter extends DateRange {
  status?: PaymentStatus;
  /** Only the payments taken at this till. */
  tillId?: string;
}

/** Succeeded payments of one Bangkok day (YYYY-MM-DD): how many, and their amount in satang. */
export interface DailyTotal {
  date: string;
  count: number;
  amount: number;
}

export interface PaymentRepository {
  insert(payment: Payment): Promise<void>;
  update(payment: Payment): Promise<void>;
  /** With `lock`, the row stays locked until the transaction ends, so concurrent changes queue. */
  findById(merchantId: string, id: string, options?: { lock?: boolean }): Promise<Payment | null>;
  list(merchantId: string, filter: PaymentFilter, page: PageRequest): Promise<Page<Payment>>;
  /** Newest first like `list`, without counting every match (the dashboard's list at a million payments). */
  listNewest(merchantId: string, filter: PaymentFilter, page: PageRequest): Promise<Slice<Payment>>;
  /** The merchant's payments carrying exactly this reference, newest first. */
  findByReference(merchantId: string, reference: string, page: PageRequest): Promise<Slice<Payment>>;
  /** Payments that succeeded (refunded ones too) within the range, by the Bangkok day they succeeded on. */
  succeededByDay(merchantId: string, range: Required<DateRange>): Promise<DailyTotal[]>;
  /** Pending test payments past their expiry, locked and skipped by concurrent sweepers. */
  lockOverdueTestPayments(now: Date, limit: number): Promise<Payment[]>;
  /** Pending live QR payments that expired at or before `expiredBy`, oldest first, unlocked: the bank is asked about them first. */
  overdueLivePayments(expiredBy: Date, limit: number): Promise<OverdueLivePayment[]>;
}

/** A live payment the sweeper may expire once the bank lists nothing for its ref1. */
export interface OverdueLivePayment {
  paymentId: string;
  merchantId: string;
  ref1: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface RefundRepository {
  insert(refund: Refund): Promise<void>;
  findById(merchantId: string, id: string): Promise<Refund | null>;
  /** The payment's refunds, oldest first. */
  listByPayment(merchantId: string, paymentId: string): Promise<Refund[]>;
}

export interface TransactionFilter extends DateRange {
  status?: TransactionStatus;
  type?: TransactionType;
}

export interface TransactionRepository {
  /** A refund's transaction (a payment's own is read from the payment: `paymentTransaction`). */
  insert(transaction: Transaction & { refundId: string }): Promise<void>;
  /** A live refund's transaction follows its refund: pending, then succeeded or failed. */
  updateRefundTransaction(refundId: string, status: TransactionStatus): Promise<void>;
  list(merchantId: string, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>>;
}

export interface EventOutbox {
  /** Writes the event; it fans out as a pending delivery to every active webhook of the merchant subscribed to its kind. */
  record(event: DomainEvent): Promise<void>;
}

export interface EventFilter extends DateRange {
  kind?: EventKind;
}

/** The outbox read back: every event of a merchant as its webhook payload (test events are not listed). */
export interface EventLog {
  find(merchantId: string, id: string): Promise<EventPayload | null>;
  list(merchantId: string, filter: EventFilter, page: PageRequest): Promise<Page<EventPayload>>;
  /** The events of one payment (its own and its refunds'), oldest first. */
  ofPayment(merchantId: string, payment: { id: string; createdAt: Date }): Promise<EventPayload[]>;
  /** Deletes up to `limit` events older than `cutoff` with their deliveries, keeping any still owed a delivery. */
  purgeOlderThan(cutoff: Date, limit: number): Promise<number>;
}

export interface WebhookChanges {
  url?: string;
  events?: EventKind[];
  status?: Webhook['status'];
}

export interface WebhookRepository {
  /** Holds off the merchant's other registrations until this transaction ends, then counts its endpoints (deleted ones aside). */
  countForRegistration(merchantId: string): Promise<number>;
  insert(webhook: Webhook, secret: string): Promise<void>;
  /** Applies the changes; disabling marks what was still pending failed. Null for an unknown webhook. */
  update(merchantId: string, id: string, changes: WebhookChanges): Promise<Webhook | null>;
  /** The current secret and the earlier ones kept, locked until the transaction ends (rotations one at a time); null for an unknown webhook. */
  secretsForRotation(merchantId: string, id: string): Promise<{ secret: string; earlier: EarlierSecret[] } | null>;
  /** The new current secret, and the earlier secrets that go on signing (any other is forgotten). */
  replaceSecrets(id: string, secret: string, earlier: readonly EarlierSecret[]): Promise<void>;
  /** Forgets earlier secrets whose time is up. */
  forgetExpiredSecrets(now: Date): Promise<number>;
  findById(merchantId: string, id: string): Promise<Webhook | null>;
  list(merchantId: string, page: PageRequest): Promise<Page<Webhook>>;
  secretOf(merchantId: string, id: string): Promise<string | null>;
  delete(merchantId: string, id: string): Promise<boolean>;
  disable(id: string): Promise<void>;
}

export interface DeliveryRepository {
  list(merchantId: string, webhookId: string, page: PageRequest): Promise<Page<Delivery>>;
  findById(merchantId: string, webhookId: string, id: string): Promise<Delivery | null>;
  /** The deliveries of these events, oldest first. */
  ofEvents(merchantId: string, eventIds: readonly string[]): Promise<Delivery[]>;
  /** Writes the test event and its one delivery (no fan-out), due now, and wakes the dispatchers on commit. */
  queueTest(event: TestEvent, delivery: Delivery): Promise<void>;
  /**
   * Makes the delivery pending and due now, whatever its state, and wakes the dispatchers on commit. An attempt in
   * flight is never joined by a second one: the redelivery then waits until that attempt is recorded.
   */
  redeliver(merchantId: string, webhookId: string, id: string, now: Date): Promise<Delivery | null>;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: Date;
}

export interface IdempotencyStore {
  /**
   * Takes the key for this transaction (`held: false` when another request holds it right now) and, when taken,
   * returns the result stored under it since `notBefore`, including one committed by the request that held it before.
   */
  claim(merchantId: string, key: string, notBefore: Date): Promise<{ held: boolean; prior: StoredResponse | null }>;
  save(merchantId: string, key: string, response: StoredResponse): Promise<void>;
  purgeOlderThan(cutoff: Date): Promise<number>;
}

/** A bank transaction as recorded: settling its payment, or unmatched with the reason. */
export interface RecordedBankTransaction {
  id: string;
  transaction: BankTransaction;
  paymentId: string | null;
  merchantId: string | null;
  unmatchedReason: UnmatchedReason | null;
  recordedAt: Date;
}

export interface BankTransactionRepository {
  /** The live payment whose QR code carries this bank reference (ref1). */
  livePaymentOf(ref1: string): Promise<{ merchantId: string; paymentId: string } | null>;
  /** Records the bank's transaction once; false (and nothing written) when its transactionId is recorded already. */
  record(recorded: RecordedBankTransaction): Promise<boolean>;
  /** The bank transaction that settled this payment (as the bank listed it), or null when none did. */
  settlingTransactionOf(paymentId: string): Promise<BankTransaction | null>;
  /** The payment a recorded bank transaction paid (or, for a till's reference, created); null when none. */
  paymentIdOf(bankTransactionId: string): Promise<string | null>;
  /** Newest first; `openOnly`: only those the operator has not handled (or whose return failed). */
  listUnmatched(limit: number, options?: { openOnly?: boolean }): Promise<UnmatchedBankTransaction[]>;
  countUnmatched(options?: { openOnly?: boolean }): Promise<number>;
  /** Unmatched money the bank reported for one payment's ref1, oldest first. */
  unmatchedOfPayment(paymentId: string): Promise<UnmatchedBankTransaction[]>;
  /** The operator's lookup by `btx_` id, locked until the transaction ends; null for an unknown or matched one. */
  lockUnmatched(id: string): Promise<UnmatchedBankTransaction | null>;
  setResolution(id: string, resolution: UnmatchedResolution): Promise<void>;
}

/** Slips checked by merchants; the one `verified` per bank transaction is kept unique by the database. */
export interface SlipVerificationRepository {
  /** The payment (of a merchant in `mode`) whose QR code carries this bank reference (ref1). */
  paymentOfReference(ref1: string, mode: Mode): Promise<{ merchantId: string; paymentId: string } | null>;
  /**
   * Records a verification; a `verified` one only if no slip of its bank transaction was verified before (false, and
   * nothing written, when one was: a concurrent request that lost waits for the winner's commit and gets false).
   */
  insert(verification: SlipVerification): Promise<boolean>;
  /** When a slip of this bank transaction was first verified, by any merchant; null: never. */
  firstVerifiedAt(slip: SlipQr): Promise<Date | null>;
  findById(merchantId: string, id: string): Promise<SlipVerification | null>;
  /** One more slip sent on a payment's checkout page: its number, or null (nothing counted) once `limit` were sent. */
  takeCheckoutTry(paymentId: string, at: Date, limit: number): Promise<number | null>;
  /** Gives a try back: the slip it took was never judged (the bank did not answer). */
  giveBackCheckoutTry(paymentId: string): Promise<void>;
}

/** Returns of unmatched money on the bulk-transfer rail, beside withdrawals and live refunds. */
export interface BankReturnQueue {
  /** Pending returns not exported yet, locked and skipped by a concurrent export. */
  lockUnexported(limit: number): Promise<UnmatchedBankTransaction[]>;
  markExported(ids: readonly string[], at: Date): Promise<void>;
}

/** A live payment that reconciliation asks the bank about. */
export interface BankCheck {
  paymentId: string;
  ref1: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export interface BankCheckQueue {
  /** Reconciliation watches a new live payment while it is pending and for 24 h after it expired. */
  watch(check: Omit<BankCheck, 'expiresAt'>): Promise<void>;
  /** Checks due now, leased for `leaseMs` so that other instances skip them. */
  claimDue(now: Date, leaseMs: number, expiredSince: Date, limit: number): Promise<BankCheck[]>;
}

export interface TillRepository {
  /** Writes the till and its static QR code row; the display's token is found by its hash. */
  insert(till: Till, displayTokenHash: string): Promise<void>;
  /** Holds off the merchant's other till creations until this transaction ends, then counts its active tills. */
  countActiveForCreation(merchantId: string): Promise<number>;
  /** With `lock`, the row stays locked until the transaction ends. */
  findById(merchantId: string, id: string, options?: { lock?: boolean }): Promise<Till | null>;
  list(merchantId: string, page: PageRequest): Promise<Page<Till>>;
  /** Name, status, closed_at and the display's token (stored with `displayTokenHash`). */
  update(till: Till, displayTokenHash: string): Promise<void>;
  /** The active till whose static QR has this QR code id (its image is public, as every QR code's). */
  activeByStaticQrCodeId(qrCodeId: string): Promise<Till | null>;
  /** The active till whose display token has this hash. */
  findActiveByDisplayTokenHash(hash: string): Promise<Till | null>;
  /** The till of a live merchant whose static QR carries this reference (ref1), locked until the transaction ends. */
  liveTillOf(reference: string): Promise<Till | null>;
  /** The references of every active till of a live merchant: reconciliation asks the bank about each. */
  activeLiveReferences(): Promise<string[]>;
}

/** The audit log: append-only, written in the transaction of the action it records. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** The merchant's entries, newest first. */
  list(merchantId: string, filter: DateRange, page: PageRequest): Promise<Page<AuditEntry>>;
}

export interface Repositories extends AccountRepositories {
  merchants: MerchantRepository;
  apiKeys: ApiKeyRepository;
  qrCodes: QrCodeRepository;
  payments: PaymentRepository;
  refunds: RefundRepository;
  transactions: TransactionRepository;
  events: EventOutbox;
  eventLog: EventLog;
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  idempotency: IdempotencyStore;
  balances: BalanceRepository;
  withdrawals: WithdrawalRepository;
  refundPayouts: RefundPayoutRepository;
  bankTransactions: BankTransactionRepository;
  bankChecks: BankCheckQueue;
  bankReturns: BankReturnQueue;
  slipVerifications: SlipVerificationRepository;
  audit: AuditLog;
  reports: ReportRepository;
  taxInvoices: TaxInvoiceRepository;
  tills: TillRepository;
}

/** A result to keep under an idempotency key; a result stored under it before `notBefore` has lapsed. */
export interface KeyedRecord {
  merchantId: string;
  key: string;
  response: StoredResponse;
  notBefore: Date;
}

/**
 * Everything creating a QR code writes, and nothing else: inserts only (no read, update or lock), so that they can be
 * held and written together in one statement (`UnitOfWork.runInOneStatement`).
 */
export interface QrCodeWrites {
  payments: Pick<PaymentRepository, 'insert'>;
  events: EventOutbox;
  qrCodes: Pick<QrCodeRepository, 'insert'>;
  bankChecks: Pick<BankCheckQueue, 'watch'>;
}

export interface UnitOfWork {
  /** Runs `work` in one database transaction: all of its writes commit together or none do. */
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * For QR creation: the inserts of `work` are held, then written together in ONE statement (one round trip; atomic
   * without BEGIN and COMMIT). Given `keyed`, they are written only together with the record it returns for the
   * result, and only if the key is free: no request holds it (see `IdempotencyStore.claim`) and no result is stored
   * under it since `notBefore`. Otherwise nothing is written: `committed: false`.
   * `work` must have no effect outside the database, since it runs before the key is checked.
   */
  runInOneStatement<T>(
    work: (writes: QrCodeWrites) => Promise<T>,
    keyed?: (result: T) => KeyedRecord | undefined,
  ): Promise<{ committed: true; result: T } | { committed: false }>;
  /** Repositories outside a transaction, for reads. */
  readonly repos: Repositories;
}
