import { describeErrors, errorCodeTable, schemaRef, validatorFor, type Operation } from './contract.js';
import type { Exchange } from './http.js';

const summary = (exchange: Exchange) => `${exchange.method} ${exchange.path} -> ${exchange.status}`;

/** The envelope every error answer uses, with a code, type and status that agree with the contract's table. */
export function envelopeProblems(exchange: Exchange): string[] {
  const validate = validatorFor(schemaRef('Error'));
  if (!validate(exchange.json))
    return [`${summary(exchange)}: the body is not the error envelope: ${describeErrors(validate.errors)}; body ${exchange.text.slice(0, 300)}`];
  const { code, type, request_id } = (exchange.json as { error: { code: string; type: string; request_id: string } }).error;
  const problems: string[] = [];
  const status = errorCodeTable['x-http-status-by-code'][code];
  if (status !== exchange.status) problems.push(`${summary(exchange)}: error code ${code} belongs with HTTP ${String(status)} in the contract`);
  if (errorCodeTable['x-error-type-by-code'][code] !== type)
    problems.push(`${summary(exchange)}: error code ${code} has type ${type}, the contract says ${errorCodeTable['x-error-type-by-code'][code]}`);
  const replayed = exchange.headers.get('idempotent-replayed') === 'true';
  if (!replayed && request_id !== exchange.headers.get('request-id'))
    problems.push(`${summary(exchange)}: error.request_id ${request_id} differs from the Request-Id header`);
  return problems;
}

/**
 * Everything the contract says about one answer of one operation: the status is documented, every documented
 * required header is there, the media type is documented, and a JSON body matches the documented schema.
 */
export function contractProblems(operation: Operation, exchange: Exchange): string[] {
  const at = `${operation.operationId} (${summary(exchange)})`;
  const documented = operation.responses[String(exchange.status)] ?? operation.responses[`${String(exchange.status)[0]}XX`];
  if (!documented)
    return [
      `${at}: HTTP ${exchange.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(', ')}); body ${exchange.text.slice(0, 300)}`,
    ];
  const problems: string[] = [];
  if (!exchange.headers.get('request-id')) problems.push(`${at}: no Request-Id header`);
  const replayed = exchange.headers.get('idempotent-replayed');
  if (replayed !== null && (replayed !== 'true' || !documented.headers['Idempotent-Replayed'])) {
    problems.push(`${at}: Idempotent-Replayed: ${replayed} is not documented for this answer`);
  }
  const mediaType = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = documented.content[mediaType];
  if (!content) {
    problems.push(`${at}: Content-Type '${mediaType}' is not documented (documented: ${Object.keys(documented.content).join(', ')})`);
    return problems;
  }
  if (mediaType !== 'application/json' || !content.schema) return problems;
  const validate = validatorFor(content.schema);
  if (!validate(exchange.json)) problems.push(`${at}: the body does not match the contract: ${describeErrors(validate.errors)}`);
  else if (exchange.status >= 400) problems.push(...envelopeProblems(exchange));
  return problems;
}
