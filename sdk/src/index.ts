export { PaymentQrClient, type PaymentQrClientOptions } from './client.js';
export type { RequestOptions, FetchFunction } from './http.js';
export { PageIterable, type Page } from './pagination.js';
export type { WaitForCompletionOptions } from './resources/payments.js';
export type { QrCodes } from './resources/qr-codes.js';
export type { Payments } from './resources/payments.js';
export type { Refunds } from './resources/refunds.js';
export type { SlipVerifications } from './resources/slip-verifications.js';
export type { Transactions } from './resources/transactions.js';
export type { Webhooks } from './resources/webhooks.js';
export type { Events } from './resources/events.js';
export type { TestHelpers } from './resources/test-helpers.js';
export type { Tills } from './resources/tills.js';
export type { Balance as BalanceResource } from './resources/balance.js';
export type { Withdrawals } from './resources/withdrawals.js';
export type { Reports, Statements, Settlements, TaxInvoices } from './resources/reports.js';
export { verifyWebhook, type WebhookHeaders } from './webhook-signature.js';
export {
  PaymentQrError,
  AuthenticationError,
  PermissionError,
  ValidationError,
  NotFoundError,
  PaymentDeclinedError,
  IdempotencyConflictError,
  RateLimitError,
  ApiError,
  ConnectionError,
  WaitTimeoutError,
  WebhookVerificationError,
  type ClientErrorCode,
  type ClientErrorType,
  type WebhookVerificationFailure,
} from './errors.js';
export type * from './types.js';
