import { contractProblems } from '../contract-check.js';
import { merchantOperations, operation } from '../contract.js';
import { fail, mustAnswer, mustEqual, mustHaveNoProblems, once, type Check, type Group, type Kit } from '../check.js';
import { noResends, type Exchange } from '../http.js';
import { records, removeKitWebhooks } from '../records.js';
import { errorTriggers, makeFixture, type Fixture } from './error-triggers.js';

const POLICY = /^"([^"]+)";q=(\d+);w=(\d+)$/;
const STATE = /^"([^"]+)";r=(\d+);t=(\d+)$/;

/** RateLimit-Policy and RateLimit (draft 9 of httpapi-ratelimit-headers): q, w, r and t always sent, r at most q. */
function fieldProblems(exchange: Exchange): string[] {
  const policy = exchange.headers.get('ratelimit-policy');
  const state = exchange.headers.get('ratelimit');
  if (!policy || !state) return [`${exchange.method} ${exchange.path} -> ${exchange.status}: no ${!policy ? 'RateLimit-Policy' : 'RateLimit'} field`];
  const p = POLICY.exec(policy);
  const s = STATE.exec(state);
  if (!p) return [`RateLimit-Policy: ${policy} is not "name";q=N;w=N`];
  if (!s) return [`RateLimit: ${state} is not "name";r=N;t=N`];
  if (p[1] !== s[1]) return [`RateLimit names policy "${s[1]}", RateLimit-Policy "${p[1]}"`];
  if (Number(s[2]) > Number(p[2])) return [`RateLimit: r=${s[2]} is more than the policy's q=${p[2]}`];
  return [];
}

/** Any authenticated request of the operation: one of its error triggers other than 401 (which has no merchant). */
const requestOf = (operationId: string) => Object.entries(errorTriggers[operationId] ?? {}).find(([status]) => status !== '401')?.[1];

/** The fixture as the rate limit's checks use it: a 429 comes back as it is. */
const answeringAsIs = (f: Fixture): Fixture => ({
  ...f,
  send: noResends(f.send),
  api: noResends(f.api),
  broke: () => ({ ...f.broke(), api: noResends(f.broke().api) }),
});

export const rateLimitsGroup: Group = {
  name: 'rate-limits',
  title: 'rate limits: the RateLimit fields, and 429 as documented',
  checks(kit: Kit) {
    const fixture = once(() => makeFixture(kit));
    const fields: Check = {
      name: 'every merchant API answer and every QR image carries RateLimit-Policy and RateLimit',
      requires: ['state'],
      async run() {
        const merchant = await kit.merchant();
        const { qrCodeId } = await records(merchant).pendingPayment(15000);
        const answers = [
          await merchant.api('GET', '/Thai/v1/payments?limit=1'),
          await merchant.api('POST', '/Thai/v1/qr-codes', { body: { amount: 15000, currency: 'THB' } }),
          await merchant.api('GET', '/Thai/v1/payments/pay_unknown0000000000000000'),
          await merchant.api('GET', '/Thai/v1/transactions?limit=0'),
          await merchant.api('GET', '/Thai/v1/balance'),
          await kit.send('GET', `/Thai/qr-codes/${qrCodeId}/image`),
        ];
        for (const answer of answers) {
          const problems = fieldProblems(answer);
          if (problems.length > 0) fail(problems.join('\n'), answer);
        }
      },
    };
    const documented: Check = {
      name: '429 is documented for every merchant operation',
      async run() {
        const undocumented = merchantOperations.filter((op) => !op.responses['429']).map((op) => op.operationId);
        mustEqual(undocumented, [], 'operations without a documented 429');
      },
    };
    const limited = merchantOperations.map(
      (op): Check => ({
        name: `${op.operationId} answers 429 rate_limit_exceeded over the limit, with Retry-After and the fields`,
        requires: ['state', 'rate-limit', ...(requestOf(op.operationId)?.requires ?? [])],
        needs: {
          ...requestOf(op.operationId)?.needs,
          'rate-limit': `its 429 needs ${op.operationId} sent twice to a service limited to 1 request a second on a stopped clock`,
        },
        async run() {
          const request = requestOf(op.operationId);
          if (!request) fail(`${op.operationId}: the kit has no authenticated request of it`);
          const f = answeringAsIs(await fixture());
          await request!(f); // empties the bucket this operation counts against, if it is not empty already
          const exchange = await request!(f);
          mustAnswer(op.operationId, exchange, 429);
          mustHaveNoProblems(contractProblems(operation(op.operationId), exchange), exchange);
          mustEqual((exchange.json as { error: { code: string } }).error.code, 'rate_limit_exceeded', `${op.operationId}: error.code`, exchange);
          if (!(Number(exchange.headers.get('retry-after')) >= 1))
            fail(`${op.operationId}: Retry-After ${String(exchange.headers.get('retry-after'))} is not a number of seconds of at least 1`, exchange);
          mustHaveNoProblems(fieldProblems(exchange), exchange);
          const remaining = STATE.exec(exchange.headers.get('ratelimit') ?? '')?.[2];
          mustEqual(remaining, '0', `${op.operationId}: RateLimit r on a 429`, exchange);
        },
      }),
    );
    return [fields, documented, ...limited];
  },
  cleanup: removeKitWebhooks,
};
