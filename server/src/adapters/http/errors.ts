import type { ServerResponse } from 'node:http';
import type { components } from '@payment-qr/contract';
import type { Logger } from 'pino';
import { DomainError, type ErrorCode } from '../../domain/errors.js';

type ErrorEnvelope = components['schemas']['Error'];
type ErrorType = ErrorEnvelope['error']['type'];

/** The one place a stable error code becomes an HTTP status and an error type. */
const wireOf: Record<ErrorCode, [status: number, type: ErrorType]> = {
  invalid_request: [400, 'validation_error'],
  invalid_json: [400, 'validation_error'],
  invalid_parameters: [400, 'validation_error'],
  invalid_token: [400, 'validation_error'],
  card_payments_unavailable: [400, 'validation_error'],
  qr_payments_unavailable: [400, 'validation_error'],
  authentication_failed: [401, 'authentication_error'],
  permission_denied: [403, 'permission_error'],
  insufficient_funds: [402, 'payment_error'],
  card_declined: [402, 'payment_error'],
  payment_not_found: [404, 'not_found'],
  refund_not_found: [404, 'not_found'],
  webhook_not_found: [404, 'not_found'],
  qr_code_not_found: [404, 'not_found'],
  event_not_found: [404, 'not_found'],
  delivery_not_found: [404, 'not_found'],
  route_not_found: [404, 'not_found'],
  method_not_allowed: [405, 'validation_error'],
  idempotency_key_reused: [409, 'idempotency_error'],
  idempotency_key_in_use: [409, 'idempotency_error'],
  qr_code_expired: [410, 'not_found'],
  payload_too_large: [413, 'validation_error'],
  request_timeout: [408, 'api_error'],
  rate_limit_exceeded: [429, 'rate_limit_error'],
  invalid_amount: [422, 'validation_error'],
  invalid_currency: [422, 'validation_error'],
  invalid_url: [422, 'validation_error'],
  webhook_limit_reached: [422, 'validation_error'],
  payment_not_pending: [422, 'validation_error'],
  payment_not_refundable: [422, 'validation_error'],
  internal_error: [500, 'api_error'],
  service_unavailable: [503, 'api_error'],
  payout_account_missing: [422, 'validation_error'],
  withdrawal_not_found: [404, 'not_found'],
  tax_invoice_not_found: [404, 'not_found'],
  range_too_large: [422, 'validation_error'],
  till_not_found: [404, 'not_found'],
  till_limit_reached: [422, 'validation_error'],
  till_unavailable: [422, 'validation_error'],
  slip_verification_not_found: [404, 'not_found'],
  slip_unreadable: [422, 'validation_error'],
  invalid_slip: [422, 'validation_error'],
};

export interface WireResponse {
  status: number;
  body: string; // serialized once, so an idempotent replay is byte for byte the same
}

export function errorResponse(error: DomainError, requestId: string): WireResponse {
  const [status, type] = wireOf[error.code];
  const envelope: ErrorEnvelope = {
    error: { code: error.code, message: error.message, type, ...(error.param ? { param: error.param } : {}), request_id: requestId },
  };
  return { status, body: JSON.stringify(envelope) };
}

/** A response the HTTP layer writes: Express's, or the bare one the hot routes answer on (./hot-routes.ts). */
export type Answer = ServerResponse & { locals: Record<string, unknown> };

/** Writes a serialized JSON answer as Express's `res.type('application/json').send()` would, on either kind of response. */
export function sendWire(res: ServerResponse, wire: WireResponse): void {
  res.statusCode = wire.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(wire.body));
  res.end(wire.body);
}

export const sendError = (res: Answer, error: DomainError): void => sendWire(res, errorResponse(error, res.locals.requestId as string));

/**
 * The answer to anything a route throws: a known error in the envelope, an unreachable database as 503, and anything
 * else as 500, logged with the request id (never shown to the client). `known` turns library errors into ours.
 */
export function answerError(res: Answer, error: unknown, logger: Logger, known: (error: unknown) => DomainError | null = () => null): void {
  const domain = error instanceof DomainError ? error : known(error);
  if (domain) return sendError(res, domain);
  if (isDatabaseOutage(error)) {
    logger.warn({ err: error, requestId: res.locals.requestId }, 'database unavailable');
    return sendError(res, serviceUnavailable());
  }
  logger.error({ err: error, requestId: res.locals.requestId }, 'unhandled error');
  sendError(res, internalError());
}

export const jsonResponse = (status: number, body: unknown): WireResponse => ({ status, body: JSON.stringify(body) });

/**
 * Failures that mean the database is out of reach, or its host no longer takes writes (25006 read_only_sql_transaction:
 * a primary demoted in place, or one not yet confirmed after a failover): the client should retry later, the process lives on.
 */
export function isDatabaseOutage(error: unknown): boolean {
  const e = error as { code?: string; message?: string; name?: string } | null;
  if (!e) return false;
  const codes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', '53300', '25006'];
  return (
    (e.code !== undefined && codes.includes(e.code)) ||
    e.name === 'KnexTimeoutError' ||
    /Unable to acquire a connection|Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
      e.message ?? '',
    )
  );
}

export const internalError = (): DomainError =>
  new DomainError('internal_error', 'Something went wrong on our side. It has been logged; retry with the same Idempotency-Key.');
export const serviceUnavailable = (): DomainError =>
  new DomainError('service_unavailable', 'The service cannot reach its database right now. Retry shortly with the same Idempotency-Key.');
