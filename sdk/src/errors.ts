import type { ErrorBody, ErrorCode, ErrorType, Payment } from './types.js';

/**
 * Codes the SDK assigns itself when there is no API error body: no answer, an answer that is not ours, or a
 * payment still pending when `payments.waitForCompletion` ran out of time (`wait_timeout`).
 */
export type ClientErrorCode = 'connection_failed' | 'timeout' | 'unexpected_response' | 'wait_timeout';
/** Types the SDK assigns itself, next to the contract's ErrorType. */
export type ClientErrorType = 'connection_error' | 'wait_timeout_error';

export interface PaymentQrErrorFields {
  message: string;
  code: ErrorCode | ClientErrorCode;
  type: ErrorType | ClientErrorType;
  status?: number | undefined;
  requestId?: string | undefined;
  param?: string | undefined;
  raw?: unknown;
  cause?: unknown;
}

/**
 * Base class of every error the client throws for a request. Branch on `code` (stable, listed in the
 * contract's ErrorCode) or on the subclass, never on `message`. Quote `requestId` when contacting support.
 */
export class PaymentQrError extends Error {
  override name = 'PaymentQrError';
  readonly code: ErrorCode | ClientErrorCode;
  readonly type: ErrorType | ClientErrorType;
  /** HTTP status; undefined when no response arrived (ConnectionError) or none failed (WaitTimeoutError). */
  readonly status: number | undefined;
  /** The `error.request_id` of the body, else the `Request-Id` header. */
  readonly requestId: string | undefined;
  /** The body field, query parameter or header to blame, when the API names one. */
  readonly param: string | undefined;
  /** The parsed response body (or its text when it is not JSON). */
  readonly raw: unknown;

  constructor(fields: PaymentQrErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.code = fields.code;
    this.type = fields.type;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.param = fields.param;
    this.raw = fields.raw;
  }
}

/** 401: the API key is missing, malformed or unknown. */
export class AuthenticationError extends PaymentQrError {
  override name = 'AuthenticationError';
}
/**
 * 403: a restricted key (`rk_test_...` / `rk_live_...`) lacks the permission the operation needs (`permission_denied`;
 * the message names it). Nothing was done; retrying with the same key cannot succeed.
 */
export class PermissionError extends PaymentQrError {
  override name = 'PermissionError';
}
/** 400, 405, 413 and 422: the request is wrong; fix it before sending it again. */
export class ValidationError extends PaymentQrError {
  override name = 'ValidationError';
}
/** 404 (unknown id or route) and 410 (expired QR code). */
export class NotFoundError extends PaymentQrError {
  override name = 'NotFoundError';
}
/** 402: the card was refused (the payment is recorded as `failed`), or the balance cannot cover a withdrawal or refund. */
export class PaymentDeclinedError extends PaymentQrError {
  override name = 'PaymentDeclinedError';
}
/** 409: the Idempotency-Key was used for a different request, or its first request is still running. */
export class IdempotencyConflictError extends PaymentQrError {
  override name = 'IdempotencyConflictError';
}
/** 429: too many requests. */
export class RateLimitError extends PaymentQrError {
  override name = 'RateLimitError';
}
/** 5xx, 408 (the request body did not arrive in time), or any other answer the SDK cannot place: safe to retry with the same Idempotency-Key. */
export class ApiError extends PaymentQrError {
  override name = 'ApiError';
}
/** No answer: the connection failed, was dropped, or timed out (`code` 'timeout'). `status` is undefined. */
export class ConnectionError extends PaymentQrError {
  override name = 'ConnectionError';
}

/**
 * `payments.waitForCompletion` ran out of time while the payment was still pending (`code` 'wait_timeout').
 * Nothing failed and nothing changed: wait again, or let the webhook tell you. `raw` is the payment as last seen.
 */
export class WaitTimeoutError extends PaymentQrError {
  override name = 'WaitTimeoutError';
  readonly paymentId: string;
  /** The status the last poll saw (`pending`). */
  readonly lastStatus: Payment['status'];

  constructor(payment: Payment, timeoutMs: number) {
    super({
      message: `Payment ${payment.payment_id} was still ${payment.status} when waitForCompletion gave up after ${timeoutMs} ms.`,
      code: 'wait_timeout',
      type: 'wait_timeout_error',
      raw: payment,
    });
    this.paymentId = payment.payment_id;
    this.lastStatus = payment.status;
  }
}

type ErrorClass = new (fields: PaymentQrErrorFields) => PaymentQrError;

function errorClassFor(status: number): ErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 400 || status === 405 || status === 413 || status === 422) return ValidationError;
  if (status === 404 || status === 410) return NotFoundError;
  if (status === 402) return PaymentDeclinedError;
  if (status === 409) return IdempotencyConflictError;
  if (status === 429) return RateLimitError;
  // 408 request_timeout, like 5xx: nothing was done, and the same request may well get through next time.
  return ApiError;
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  return typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
}

/** Builds the error for a non-2xx answer; `raw` is the parsed body (or its text), `requestIdHeader` the header. */
export function errorFromResponse(status: number, raw: unknown, requestIdHeader: string | null): PaymentQrError {
  const ErrorClassForStatus = errorClassFor(status);
  if (isErrorBody(raw)) {
    const { code, message, type, param, request_id } = raw.error;
    return new ErrorClassForStatus({ message, code, type, status, param, raw, requestId: request_id ?? requestIdHeader ?? undefined });
  }
  // Not our envelope (a proxy's HTML page, an empty body): keep the status and the text for diagnosis.
  return new ErrorClassForStatus({
    message: `Unexpected HTTP ${status} answer without an error body.`,
    code: 'unexpected_response',
    type: 'api_error',
    status,
    raw,
    requestId: requestIdHeader ?? undefined,
  });
}

/** Why a webhook delivery was refused by `webhooks.verify`. */
export type WebhookVerificationFailure =
  | 'missing_headers'
  | 'invalid_signature'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_timestamp'
  | 'invalid_secret'
  | 'invalid_payload';

/** Thrown by `webhooks.verify`: do not trust the body; answer 400. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
