/** Every error the service can answer with. The HTTP adapter maps a code to its status; the domain never does. */
export const errorCodes = [
  'invalid_request',
  'invalid_json',
  'invalid_parameters',
  'invalid_amount',
  'invalid_currency',
  'invalid_url',
  'webhook_limit_reached',
  'invalid_token',
  'card_payments_unavailable',
  'qr_payments_unavailable',
  'authentication_failed',
  'permission_denied',
  'payment_not_found',
  'refund_not_found',
  'webhook_not_found',
  'qr_code_not_found',
  'event_not_found',
  'delivery_not_found',
  'route_not_found',
  'method_not_allowed',
  'qr_code_expired',
  'payment_not_pending',
  'payment_not_refundable',
  'insufficient_funds',
  'card_declined',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'payload_too_large',
  'request_timeout',
  'rate_limit_exceeded',
  'internal_error',
  'service_unavailable',
  'payout_account_missing',
  'withdrawal_not_found',
  'tax_invoice_not_found',
  'range_too_large',
  'till_not_found',
  'till_limit_reached',
  'till_unavailable',
  'slip_verification_not_found',
  'slip_unreadable',
  'invalid_slip',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The figures of a refusal (satang, counts), for a page to say it in its own words: `{ refundable: 129900 }`. */
export type ErrorDetails = Readonly<Record<string, number>>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (code: Extract<ErrorCode, `${string}_not_found`>, id: string): DomainError =>
  new DomainError(code, `No ${code.replace('_not_found', '').replace('_', ' ')} with id '${id}'.`);
