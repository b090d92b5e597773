import type { ApiKeyRecord } from '../domain/api-key.js';
import type { DomainEvent } from '../domain/events.js';
import type { Merchant } from '../domain/merchant.js';
import type { DateRange, Page, PageRequest } from '../domain/page.js';
import type { Payment, PaymentStatus } from '../domain/payment.js';
import type { QrCode } from '../domain/qr-code.js';
import type { Refund } from '../domain/refund.js';
import type { Transaction, TransactionStatus, TransactionType } from '../domain/transaction.js';
import type { Delivery, Webhook } from '../domain/webhook.js';

export interface MerchantRepository {
  insert(merchant: Merchant, apiKey: NewApiKey): Promise<void>;
  /**
   * The merchant owning an API key that is not revoked, found by the key's SHA-256 hash; `keyHash` is returned for a
   * constant-time compare, `expiresAt` for the caller to judge against its clock.
   */
  findByApiKeyHash(hash: string): Promise<{ merchant: Merchant; keyHash: string; keyId: string; expiresAt: Date | null } | null>;
  findById(id: string): Promise<Merchant | null>;
  count(): Promise<number>;
}

export interface NewApiKey {
  id: string;
  hash: string;
  prefix: string;
  last4: string;
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
}

export interface PaymentRepository {
  insert(payment: Payment): Promise<void>;
  update(payment: Payment): Promise<void>;
  /** With `lock`, the row stays locked until the transaction ends, so concurrent changes queue. */
  findById(merchantId: string, id: string, options?: { lock?: boolean }): Promise<Payment | null>;
  list(merchantId: string, filter: PaymentFilter, page: PageRequest): Promise<Page<Payment>>;
  /** Pending payments past their expiry, locked and skipped by concurrent sweepers. */
  lockOverduePending(now: Date, limit: number): Promise<Payment[]>;
}

export interface RefundRepository {
  insert(refund: Refund): Promise<void>;
  findById(merchantId: string, id: string): Promise<Refund | null>;
}

export interface TransactionFilter extends DateRange {
  status?: TransactionStatus;
  type?: TransactionType;
}

export interface TransactionRepository {
  insert(transaction: Transaction): Promise<void>;
  /** Moves a payment's own transaction to the payment's new type and status. */
  updatePaymentTransaction(paymentId: string, state: Pick<Transaction, 'type' | 'status'>): Promise<void>;
  list(merchantId: string, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>>;
}

export interface EventOutbox {
  /** Writes the event; it fans out as a pending delivery to every active webhook of the merchant subscribed to its kind. */
  record(event: DomainEvent): Promise<void>;
}

export interface WebhookRepository {
  insert(webhook: Webhook, secret: string): Promise<void>;
  findById(merchantId: string, id: string): Promise<Webhook | null>;
  list(merchantId: string, page: PageRequest): Promise<Page<Webhook>>;
  secretOf(merchantId: string, id: string): Promise<string | null>;
  delete(merchantId: string, id: string): Promise<boolean>;
  disable(id: string): Promise<void>;
}

export interface DeliveryRepository {
  list(merchantId: string, webhookId: string, page: PageRequest): Promise<Page<Delivery>>;
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

export interface Repositories {
  merchants: MerchantRepository;
  apiKeys: ApiKeyRepository;
  qrCodes: QrCodeRepository;
  payments: PaymentRepository;
  refunds: RefundRepository;
  transactions: TransactionRepository;
  events: EventOutbox;
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  idempotency: IdempotencyStore;
}

/** A result to keep under an idempotency key; a result stored under it before `notBefore` has lapsed. */
export interface KeyedRecord {
  merchantId: string;
  key: string;
  response: StoredResponse;
  notBefore: Date;
}

export interface UnitOfWork {
  /** Runs `work` in one database transaction: all of its writes commit together or none do. */
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * For work that reads and inserts, nothing else: its inserts are held, then written together in ONE statement
   * (one round trip; atomic without BEGIN and COMMIT). Given `keyed`, they are written only together with the record
   * it returns for the result, and only if the key is free: no request holds it (see `IdempotencyStore.claim`) and
   * no result is stored under it since `notBefore`. Otherwise nothing is written: `committed: false`.
   * `work` must have no effect outside the database, since it runs before the key is checked.
   */
  runInOneStatement<T>(work: (repos: Repositories) => Promise<T>, keyed?: (result: T) => KeyedRecord | undefined): Promise<{ committed: true; result: T } | { committed: false }>;
  /** Repositories outside a transaction, for reads. */
  readonly repos: Repositories;
}
