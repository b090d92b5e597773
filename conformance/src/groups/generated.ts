import fc from 'fast-check';
import { mutationOf, valueOf, type Hints } from '../arbitraries.js';
import { contractProblems } from '../contract-check.js';
import { merchantOperations, type Operation } from '../contract.js';
import { CheckFailure, fail, notHere, NotRunHere, type Check, type Group, type Kit } from '../check.js';
import { maskKeys, type Send } from '../http.js';
import { bangkokToday, KIT_HOOK_URL, records, removeKitWebhooks, removeWebhooksSince, webhookIdsNow } from '../records.js';

/** Requests per operation; each is checked against what the contract documents for that operation. */
export const RUNS_PER_OPERATION = 60;

interface Pools {
  apiKey: string;
  ids: Record<string, string[]>;
  /** Why there are no webhooks, when the service refused the kit's webhook URL. */
  noWebhooks?: NotRunHere;
  /** True when the merchant has no tax invoice to read and there is no operator to issue one. */
  noTaxInvoices?: boolean;
}

/**
 * Two active tills of the merchant: its own when it has them (a deployment's merchant is one for the whole run, and
 * may hold 100 active tills at most), else made now.
 */
async function activeTills(api: Send, mine: ReturnType<typeof records>): Promise<string[]> {
  const listed = await api('GET', '/Thai/v1/tills?limit=100');
  const active = ((listed.json as { tills?: { till_id: string; status: string }[] } | undefined)?.tills ?? [])
    .filter((till) => till.status === 'active')
    .map((till) => till.till_id);
  while (active.length < 2) active.push(await mine.till(`Kit till ${active.length + 1}`));
  return active.slice(0, 2);
}

/** Records in every state for one operation's requests; with an operator, one record of another merchant too. */
async function makePools(kit: Kit, op: Operation): Promise<Pools> {
  const merchant = await kit.merchant();
  const operator = merchant.merchantId ? kit.target.operator : undefined;
  // A tax invoice needs fees (and the operator to issue it): only the operations that read one pay them.
  const invoiced = op.path.includes('{tax_invoice_id}');
  if (operator) await operator.setPayoutAccount(merchant.merchantId!);
  if (operator && invoiced) await operator.chargeFees(merchant.merchantId!);
  const mine = records(merchant);
  const other = kit.target.operator ? records(await kit.merchant()) : null;
  const payments = [
    ...(await Promise.all([1, 2, 3, 4].map((i) => mine.pendingPayment(10000 * i)))),
    ...(await Promise.all([1, 2, 3].map((i) => mine.succeededPayment(20000 * i)))),
    await mine.expiredPayment(30000),
    await mine.failedPayment(40000),
    ...(other ? [await other.succeededPayment(50000)] : []),
  ];
  let noWebhooks: NotRunHere | undefined;
  const webhookIds = await Promise.all([1, 2, 3].map((i) => mine.webhook(`${KIT_HOOK_URL}/${i}`))).catch((error: unknown) => {
    if (!(error instanceof NotRunHere)) throw error;
    noWebhooks = error;
    return [] as string[];
  });
  await mine.pendingPayment(60000);
  const withdrawal = await mine.paidOutWithdrawal(5000).then(
    (id) => [id],
    () => [] as string[], // a deployment's merchant without a payout account: withdrawals are refused, as documented
  );
  if (operator && invoiced) await operator.issueTaxInvoices();
  const taxInvoiceId = invoiced ? await mine.newestTaxInvoiceId() : '';
  const noTaxInvoices = invoiced && !taxInvoiceId;
  return {
    apiKey: merchant.apiKey,
    ...(noWebhooks ? { noWebhooks } : {}),
    ...(noTaxInvoices ? { noTaxInvoices } : {}),
    ids: {
      payment_id: payments.map((p) => p.paymentId),
      qr_code_id: payments.map((p) => p.qrCodeId),
      refund_id: await Promise.all(payments.slice(4, 6).map(({ paymentId }) => mine.refund(paymentId, 1000))),
      webhook_id: webhookIds,
      withdrawal_id: withdrawal,
      // A payment after the webhooks: one delivery for each of them, and events to read.
      delivery_id: await Promise.all(webhookIds.map((id) => mine.latestDeliveryId(id))),
      event_id: [await mine.latestEventId(), ...(other ? [await other.latestEventId()] : [])],
      // Reports name a month and a day in Bangkok: this one holds the payments above.
      month: [bangkokToday().slice(0, 7)],
      date: [bangkokToday()],
      tax_invoice_id: taxInvoiceId ? [taxInvoiceId] : [],
      // Two tills (a generated close may close one) and a slip of a succeeded payment checked once.
      till_id: await activeTills(merchant.api, mine),
      slip_payload: [await mine.slipOf(payments[5]!.paymentId)],
      slip_verification_id: [await mine.slipVerification(await mine.slipOf(payments[4]!.paymentId))],
    },
  };
}

const secret = fc
  .integer({ min: 24, max: 64 })
  .chain((n) => fc.uint8Array({ minLength: n, maxLength: n }))
  .map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`);

const hints = (pools: Pools, operationId: string): Hints => ({
  // A refund amount is valid from 1 to what is still refundable; the schema leaves that to prose.
  ...(operationId === 'createRefund'
    ? { amount: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 20000 }), weight: 3 }, { arbitrary: fc.integer(), weight: 1 }) }
    : {}),
  // A withdrawal is valid from 100 satang to the available balance; the schema leaves that to prose too.
  ...(operationId === 'createWithdrawal'
    ? { amount: fc.oneof({ arbitrary: fc.integer({ min: 100, max: 2000 }), weight: 3 }, { arbitrary: fc.integer(), weight: 1 }) }
    : {}),
  // A test till payment is valid from 100 satang to 2,000,000 THB; the schema leaves that to prose.
  ...(operationId === 'createTestTillPayment'
    ? { amount: fc.oneof({ arbitrary: fc.integer({ min: 100, max: 200_000_000 }), weight: 3 }, { arbitrary: fc.integer(), weight: 1 }) }
    : {}),
  // A slip's photo is base64 (the server's own tests send it large and noisy: slip-verifications.test.ts); here, small.
  ...(operationId === 'createSlipVerification'
    ? {
        image: fc.base64String({ maxLength: 2_000 }),
        payload: fc.oneof({ arbitrary: fc.constantFrom(...pools.ids.slip_payload!), weight: 3 }, { arbitrary: fc.string({ maxLength: 60 }), weight: 1 }),
      }
    : {}),
  payment_id: fc.oneof({ arbitrary: fc.constantFrom(...pools.ids.payment_id!), weight: 4 }, { arbitrary: fc.string({ maxLength: 30 }), weight: 1 }),
  till_id: fc.oneof({ arbitrary: fc.constantFrom(...pools.ids.till_id!), weight: 4 }, { arbitrary: fc.string({ maxLength: 30 }), weight: 1 }),
  token_id: fc.oneof(
    { arbitrary: fc.constantFrom('tok_visa', 'tok_mastercard', 'tok_declined', 'tok_insufficient_funds'), weight: 4 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 20 }), weight: 1 },
  ),
  // No DNS and loopback only (a deployment's dispatcher delivers to them): the kit's own addresses, other schemes, text that is no URL.
  url: fc.oneof(
    { arbitrary: fc.constantFrom(`${KIT_HOOK_URL}/h`, 'http://127.0.0.1:9/conformance-kit/h', 'https://[::1]/conformance-kit/x'), weight: 3 },
    { arbitrary: fc.constantFrom('ftp://127.0.0.1/conformance-kit/x', 'not a url', '', '/relative'), weight: 1 },
  ),
  secret: fc.oneof({ arbitrary: secret, weight: 3 }, { arbitrary: valueOf({ $ref: '#/components/schemas/WebhookSigningSecret' }), weight: 1 }),
  metadata: fc.oneof(
    { arbitrary: valueOf({ type: 'object', additionalProperties: true }), weight: 4 },
    { arbitrary: fc.constant(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))), weight: 1 },
    { arbitrary: fc.constant({ blob: 'x'.repeat(9000) }), weight: 1 },
  ),
});

/** A path parameter: one of the merchant's records, another merchant's, or text that names nothing. */
const pathValue = (pools: Pools, name: string) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...(pools.ids[name]?.length ? pools.ids[name] : ['none'])), weight: 4 },
    { arbitrary: fc.stringMatching(/^[a-z0-9_]{1,30}$/), weight: 1 },
  );

/** A query value: a valid one, as text, or text a merchant might type by mistake. */
const queryValue = (schema: Record<string, unknown>) =>
  fc.oneof(
    { arbitrary: valueOf(schema).map(String), weight: 3 },
    { arbitrary: fc.constantFrom('', '-1', '0', '1.5', 'abc', '101', '2026-13-45', 'PENDING'), weight: 1 },
  );

/** `runId` keeps a run's Idempotency-Keys its own: a second run with the same seed must not replay the first run's answers. */
function requestOf(op: Operation, pools: Pools, runId: string) {
  const params = op.parameters as { name: string; in: string; schema: Record<string, unknown> }[];
  const path = fc.record(Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(pools, p.name)])));
  const query = fc.record(Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, queryValue(p.schema)])), { requiredKeys: [] });
  const body = op.requestSchema
    ? fc.option(
        fc.oneof(
          { arbitrary: valueOf(op.requestSchema, hints(pools, op.operationId)), weight: 3 },
          { arbitrary: mutationOf(op.requestSchema, hints(pools, op.operationId)), weight: 2 },
        ),
        { freq: 10 },
      )
    : fc.constant(null);
  const auth = fc.oneof(
    { arbitrary: fc.constant(pools.apiKey), weight: 8 },
    { arbitrary: fc.constantFrom(undefined, 'sk_test_unknown', 'not-a-key'), weight: 1 },
  );
  const idempotencyKey =
    op.method === 'post'
      ? fc.option(
          fc.oneof(
            fc.uuid().map((id) => `${runId}-${id}`),
            fc.constantFrom(`k-${runId}`, '', 'k'.repeat(256)),
          ),
          { freq: 2 },
        )
      : fc.constant(null);
  // Every operation is served under each base its servers name; the first is canonical.
  const base = fc.constantFrom(...(op.servedPath.startsWith('/Thai/v1') ? ['/Thai/v1', '/v1'] : ['/Thai']));
  return fc.record({ path, query, body, auth, idempotencyKey, base });
}

export const generatedGroup: Group = {
  name: 'generated',
  title: 'generated requests, answered only as the contract documents',
  checks(kit: Kit) {
    return merchantOperations.map(
      (op): Check => ({
        name: `${op.operationId}: ${RUNS_PER_OPERATION} generated requests`,
        requires: ['state'],
        async run() {
          // A deployment's merchant holds at most 16 webhooks: what this check registers goes when it ends.
          const before = await webhookIdsNow(kit);
          try {
            await generatedRequests(kit, op);
          } finally {
            await removeWebhooksSince(kit, before);
          }
        },
      }),
    );
  },
  cleanup: removeKitWebhooks,
};

async function generatedRequests(kit: Kit, op: Operation): Promise<void> {
  const pools = await makePools(kit, op);
  // Without a webhook of its own, an operation on webhooks could only be refused; likewise without a tax invoice.
  if (pools.noWebhooks && op.path.startsWith('/webhooks'))
    throw new NotRunHere(`${op.operationId} needs webhooks of the kit's own: ${pools.noWebhooks.message}`);
  if (pools.noTaxInvoices) throw notHere('operator', `${op.operationId} needs a tax invoice to read, which the operator issues`);
  const seen = new Map<number, number>();
  const outcome = await fc.check(
    fc.asyncProperty(requestOf(op, pools, kit.runId), async (request) => {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(request.path[name])));
      const search = new URLSearchParams(request.query as Record<string, string>).toString();
      const exchange = await kit.send(op.method.toUpperCase(), `${request.base}${path}${search ? `?${search}` : ''}`, {
        ...(request.auth === undefined ? {} : { apiKey: request.auth }),
        ...(request.body === null ? {} : { body: request.body }),
        ...(request.idempotencyKey === null ? {} : { idempotencyKey: request.idempotencyKey }),
      });
      seen.set(exchange.status, (seen.get(exchange.status) ?? 0) + 1);
      if (exchange.status >= 500) fail(`${op.operationId}: a server error is never an answer`, exchange);
      const problems = contractProblems(op, exchange);
      if (problems.length > 0) fail(problems.join('\n'), exchange);
    }),
    { numRuns: RUNS_PER_OPERATION, seed: kit.seed, endOnFailure: true },
  );
  if (outcome.failed) {
    const why = outcome.errorInstance instanceof Error ? outcome.errorInstance.message : String(outcome.errorInstance);
    throw new CheckFailure(maskKeys(`${why}\n(generated with --seed ${kit.seed}; run ${outcome.numRuns} of ${RUNS_PER_OPERATION})`));
  }
  // The generator is broad enough to reach both a success and a refusal of every operation.
  const statuses = JSON.stringify(Object.fromEntries(seen));
  if (![...seen.keys()].some((status) => status < 300)) fail(`${op.operationId}: no generated request succeeded: ${statuses}`);
  if (![...seen.keys()].some((status) => status >= 400)) fail(`${op.operationId}: no generated request was refused: ${statuses}`);
}
