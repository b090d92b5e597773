import { contractProblems, envelopeProblems } from '../contract-check.js';
import { operation, operations } from '../contract.js';
import { fail, mustAnswer, mustEqual, mustHaveNoProblems, once, type Check, type Group, type Kit } from '../check.js';
import type { Exchange } from '../http.js';
import { removeKitWebhooks } from '../records.js';
import { errorTriggers, makeFixture, UNKNOWN, type Fixture } from './error-triggers.js';

/**
 * 500 and 503 need a broken database, 408 a body that trickles for 10 s; the server's own tests drive them. 429 needs
 * the rate limit within reach: the rate-limits group drives it for every operation. Every other documented error is
 * driven here.
 */
const NOT_DRIVABLE_OVER_HTTP = new Set(['408', '429', '500', '503']);

export const documentedErrors = operations.flatMap((op) =>
  Object.keys(op.responses)
    .filter((status) => Number(status) >= 400 && !NOT_DRIVABLE_OVER_HTTP.has(status))
    .map((status) => ({ name: `${op.operationId} ${status}`, operationId: op.operationId, status })),
);

/** The methods the contract serves at a served path such as /Thai/v1/payments/{payment_id}. */
const documentedMethods = (servedPath: string): string[] => operations.filter((op) => op.servedPath === servedPath).map((op) => op.method.toUpperCase());

const codeOf = (exchange: Exchange): unknown => (exchange.json as { error?: { code?: unknown } } | undefined)?.error?.code;

function outsideOperations(fixture: () => Promise<Fixture>): Check[] {
  const plain = (name: string, request: (f: Fixture) => Promise<Exchange>, status: number, code: string, more?: (exchange: Exchange) => void): Check => ({
    name,
    requires: ['state'],
    async run() {
      const exchange = await request(await fixture());
      if (exchange.status !== status) fail(`${name}: expected HTTP ${status} ${code}, got HTTP ${exchange.status}`, exchange);
      mustHaveNoProblems(envelopeProblems(exchange), exchange);
      mustEqual(codeOf(exchange), code, `${name}: error.code`, exchange);
      more?.(exchange);
    },
  });
  const paymentPath = '/Thai/v1/payments/{payment_id}';
  return [
    plain('an unknown route answers 404 route_not_found', (f) => f.api('GET', '/Thai/v1/paymnts'), 404, 'route_not_found'),
    plain(
      'a method the path does not serve answers 405 method_not_allowed, with Allow',
      (f) => f.api('PUT', `/Thai/v1/payments/${UNKNOWN.payment}`, { body: {} }),
      405,
      'method_not_allowed',
      (exchange) => {
        const allow = (exchange.headers.get('allow') ?? '')
          .split(',')
          .map((method) => method.trim().toUpperCase())
          .filter(Boolean);
        const missing = documentedMethods(paymentPath).filter((method) => !allow.includes(method));
        if (!exchange.headers.get('allow') || missing.length > 0)
          fail(
            `405 names the methods the path serves in Allow: expected ${documentedMethods(paymentPath).join(', ')}, got ${exchange.headers.get('allow') ?? 'no Allow header'}`,
            exchange,
          );
        if (allow.includes('PUT')) fail('405: Allow lists the refused method PUT', exchange);
      },
    ),
    plain('malformed JSON answers 400 invalid_json', (f) => f.api('POST', '/Thai/v1/qr-codes', { rawBody: '{"amount": 15000,' }), 400, 'invalid_json'),
    plain('no API key answers 401 authentication_failed', (f) => f.send('GET', '/Thai/v1/payments'), 401, 'authentication_failed'),
  ];
}

/** Every documented error of every operation, driven over HTTP, answers its status in the error envelope. */
export const errorsGroup: Group = {
  name: 'errors',
  title: 'every documented error of every operation answers with the error envelope',
  checks(kit: Kit) {
    const fixture = once(() => makeFixture(kit));
    const coverage: Check = {
      name: 'the kit drives every documented 4xx of the contract',
      async run() {
        const driven = Object.entries(errorTriggers).flatMap(([operationId, byStatus]) => Object.keys(byStatus).map((status) => `${operationId} ${status}`));
        const undriven = documentedErrors.map((e) => e.name).filter((name) => !driven.includes(name));
        const stale = driven.filter((name) => !documentedErrors.some((e) => e.name === name));
        if (undriven.length || stale.length)
          fail(`the contract and the kit's error triggers differ: not driven ${JSON.stringify(undriven)}, not documented ${JSON.stringify(stale)}`);
      },
    };
    const documented = documentedErrors.map(
      ({ name, operationId, status }): Check => ({
        name,
        requires: ['state', ...(errorTriggers[operationId]?.[status]?.requires ?? [])],
        needs: errorTriggers[operationId]?.[status]?.needs,
        async run() {
          const trigger = errorTriggers[operationId]?.[status];
          if (!trigger) fail(`${name}: the kit has no way to drive it`);
          const exchange = await trigger!(await fixture());
          mustAnswer(operationId, exchange, Number(status));
          mustHaveNoProblems(contractProblems(operation(operationId), exchange), exchange);
        },
      }),
    );
    return [coverage, ...documented, ...outsideOperations(fixture)];
  },
  cleanup: removeKitWebhooks,
};
