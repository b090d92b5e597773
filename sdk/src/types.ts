// Every wire type of the SDK, derived from the contract's generated types (a copy of
// contract/src/generated/openapi.ts, see scripts/copy-contract-types.ts). Nothing here is hand-written
// except the narrowing of request types noted below.
import type { components, operations } from './generated/openapi.js';

export type { components, operations };

type Schemas = components['schemas'];
type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]['parameters']['query']>;

// Resources
export type QrCode = Schemas['QrCode'];
export type Payment = Schemas['Payment'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type Card = Schemas['Card'];
export type Refund = Schemas['Refund'];
export type SlipVerification = Schemas['SlipVerification'];
export type TestPaymentSlip = Schemas['TestPaymentSlip'];
export type RefundStatus = Schemas['RefundStatus'];
export type Transaction = Schemas['Transaction'];
export type TransactionType = Schemas['TransactionType'];
export type TransactionStatus = Schemas['TransactionStatus'];
export type Webhook = Schemas['Webhook'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookSecret = Schemas['WebhookSecret'];
export type DeletedWebhook = Schemas['DeletedWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type DeliveryEventType = Schemas['DeliveryEventType'];
/** An event as `GET /events` reads it: exactly its webhook payload. */
export type Event = Schemas['Event'];
export type Currency = Schemas['Currency'];
export type Metadata = Schemas['Metadata'];
export type Balance = Schemas['Balance'];
export type BalanceTransaction = Schemas['BalanceTransaction'];
export type BalanceTransactionType = Schemas['BalanceTransactionType'];
export type Withdrawal = Schemas['Withdrawal'];
export type WithdrawalStatus = Schemas['WithdrawalStatus'];
export type WithdrawalDestination = Schemas['WithdrawalDestination'];
export type MonthlyStatement = Schemas['MonthlyStatement'];
export type TaxInvoice = Schemas['TaxInvoice'];
export type TaxParty = Schemas['TaxParty'];
export type Till = Schemas['Till'];

// Webhook events, discriminated by `event`.
export type PaymentEvent = Schemas['PaymentEvent'];
export type RefundEvent = Schemas['RefundEvent'];
export type WithdrawalEvent = Schemas['WithdrawalEvent'];
/** Sent only on request (`webhooks.sendTest`), only to that endpoint. */
export type TestEvent = Schemas['TestEvent'];
export type WebhookEvent = PaymentEvent | RefundEvent | WithdrawalEvent | TestEvent;

// Errors
export type ErrorBody = Schemas['Error'];
export type ErrorCode = Schemas['ErrorCode'];
export type ErrorType = Schemas['ErrorType'];

// Request parameters. The contract types `currency` as a string (any other value is a 422, not a schema
// error); the SDK narrows it to `THB` so that a wrong currency does not compile. openapi-typescript marks
// fields with a default (`expiry_minutes`) as required; they are optional on the wire. The body
// `idempotency_key` is left out: the SDK always sends the Idempotency-Key header (see RequestOptions).
export type CreateQrCodeParams = Omit<Schemas['CreateQrCodeRequest'], 'currency' | 'expiry_minutes' | 'idempotency_key'> & {
  currency: Currency;
  expiry_minutes?: Schemas['CreateQrCodeRequest']['expiry_minutes'];
};
export type CreateCardPaymentParams = Omit<Schemas['CreateCardPaymentRequest'], 'currency'> & { currency: Currency };
export type SucceedTestPaymentParams = Schemas['SucceedTestPaymentRequest'];
export type CreateRefundParams = Schemas['CreateRefundRequest'];
export type CreateSlipVerificationParams = Schemas['CreateSlipVerificationRequest'];
export type CreateWebhookParams = Schemas['CreateWebhookRequest'];
export type CreateWithdrawalParams = Schemas['CreateWithdrawalRequest'];
export type UpdateWebhookParams = Schemas['UpdateWebhookRequest'];
export type RotateWebhookSecretParams = Schemas['RotateWebhookSecretRequest'];
export type CreateTillParams = Schemas['CreateTillRequest'];
export type CreateTestTillPaymentParams = Schemas['CreateTestTillPaymentRequest'];

export type QrCodeImageParams = QueryOf<'getQrCodeImage'>;
export type PaymentListParams = QueryOf<'listPayments'>;
export type TransactionListParams = QueryOf<'listTransactions'>;
export type WebhookListParams = QueryOf<'listWebhooks'>;
export type WebhookDeliveryListParams = QueryOf<'listWebhookDeliveries'>;
/** The ledger as JSON: `format` is the API's CSV switch, which the SDK does not use. */
export type BalanceTransactionListParams = Omit<QueryOf<'listBalanceTransactions'>, 'format'>;
export type WithdrawalListParams = QueryOf<'listWithdrawals'>;
export type TaxInvoiceListParams = QueryOf<'listTaxInvoices'>;
export type EventListParams = QueryOf<'listEvents'>;
export type TillListParams = QueryOf<'listTills'>;
/** `limit` (1 to 100) and `offset` (0 or more), common to every list. */
export type PageParams = { limit?: number; offset?: number };
