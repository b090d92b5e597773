import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblems, envelopeProblems } from '../support/contract-check.js';
import { operation, operations } from '../support/contract.js';
import { errorTriggers as triggers, seedFixture, UNKNOWN, type Fixture } from '../support/error-triggers.js';
import { send, type Exchange } from '../support/http.js';
import { startService, type Service } from '../support/service.js';

/**
 * 500 and 503 need a broken database; the server's own failure tests drive them. 429 needs the rate limit on:
 * rate-limits.test.ts drives it for every operation. 408 needs a body that stalls for the deployment's body timeout
 * (10 s): the server's own tests drive it in both lanes. Everything else is driven here.
 */
const NOT_DRIVABLE_OVER_HTTP = new Set(['408', '429', '500', '503']);

const documentedErrors = operations.flatMap((op) =>
  Object.keys(op.responses)
    .filter((status) => Number(status) >= 400 && !NOT_DRIVABLE_OVER_HTTP.has(status))
    .map((status) => ({ name: `${op.operationId} ${status}`, operationId: op.operationId, status })),
);

let service: Service;
let fixture: Fixture;
beforeAll(async () => {
  service = await startService();
  fixture = await seedFixture(service);
});
afterAll(async () => {
  await service?.stop();
});

describe('every documented error of every operation answers with the error envelope', () => {
  it('has a way to drive each documented 4xx (a new one in the contract needs one here)', () => {
    const driven = Object.entries(triggers).flatMap(([operationId, byStatus]) => Object.keys(byStatus).map((status) => `${operationId} ${status}`));
    expect(driven.sort()).toEqual(documentedErrors.map((e) => e.name).sort());
  });

  it.each(documentedErrors)('$name', async ({ operationId, status }) => {
    const exchange = await triggers[operationId]![status]!(fixture);
    expect(exchange.status, `${exchange.method} ${exchange.path}: ${exchange.text.slice(0, 300)}`).toBe(Number(status));
    expect(contractProblems(operation(operationId), exchange)).toEqual([]);
  });
});

describe('answers outside any operation use the envelope too', () => {
  const cases: [string, () => Promise<Exchange>, number, string][] = [
    ['an unknown route', () => fixture.api('GET', '/Thai/v1/paymnts'), 404, 'route_not_found'],
    ['a wrong method', () => fixture.api('PUT', `/Thai/v1/payments/${UNKNOWN.payment}`, { body: {} }), 405, 'method_not_allowed'],
    ['malformed JSON', () => fixture.api('POST', '/Thai/v1/qr-codes', { rawBody: '{"amount": 15000,' }), 400, 'invalid_json'],
    ['no API key', () => send(fixture.base, 'GET', '/Thai/v1/payments'), 401, 'authentication_failed'],
  ];
  it.each(cases)('%s', async (_name, request, status, code) => {
    const exchange = await request();
    expect(exchange.status).toBe(status);
    expect(envelopeProblems(exchange)).toEqual([]);
    expect((exchange.json as { error: { code: string } }).error.code).toBe(code);
  });
});
