/** A clock of the service that the kit moves by hand (only a service the kit started has one). */
export interface ManualClock {
  now(): Date;
  set(at: Date): void;
}

/** What only the operator of a service can do (the CLI, the database): a run beside the server has it, a URL does not. */
export interface Operator {
  /** A new merchant with its own key; `live` for the bank connection's checks. */
  newMerchant(options?: { live?: boolean }): Promise<{ merchantId: string; apiKey: string }>;
  /** Where withdrawals go: set by the operator, never through the API. */
  setPayoutAccount(merchantId: string): Promise<void>;
  /** One more key of the merchant, restricted to `permissions` (`qr_codes:write`, ...): an `rk_test_` key, as `keys create --permissions`. */
  restrictedKey(merchantId: string, permissions: string[]): Promise<string>;
  /** Fees on the merchant's payments from now on, and its tax details: its month then gets a tax invoice. */
  chargeFees(merchantId: string): Promise<void>;
  /** Issues the tax invoices of the month under way in Bangkok (specimens: the kit's merchants are test merchants). */
  issueTaxInvoices(): Promise<void>;
}

/** The bank in front of a service with BANK=scb: a simulator that pays a QR payload, and the service's callback path. */
export interface BankConnection {
  pay(qrData: string): { transaction: { transactionId: string; reverseFlag?: string } };
  callbackPath: string;
}

/**
 * Where the checks point: a deployment (a URL and one sandbox key) or a service the kit's own tests started
 * (which also lends the operator's powers, its clock and its bank, for the checks a URL cannot drive).
 */
export interface Target {
  baseUrl: string;
  /** The key of a deployment: every check and state uses it. Absent when the operator makes a merchant per check. */
  apiKey?: string;
  operator?: Operator;
  /** The service's clock, when the kit moves it (records made at one instant; the rate limit's refill). */
  clock?: ManualClock;
  bank?: BankConnection;
  /** The service's per-merchant limit when the kit set it so low that it can drive a 429 on every operation. */
  rateLimitPerSecond?: number;
  /** No webhook dispatcher runs: a delivery stays as it was written (the pact expects one untouched). */
  deliveriesWait?: boolean;
  /** Where a receiver the kit starts listens and how the service reaches it (--receiver-host). */
  receiver?: { host: string; port: number; publicUrl?: string };
}
