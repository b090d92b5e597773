import { contractProblems } from '../contract-check.js';
import { operation } from '../contract.js';
import { fail, must, mustAnswer, mustEqual, mustHaveNoProblems, type Check, type Group, type Kit, type Merchant } from '../check.js';
import type { Exchange, Send } from '../http.js';
import { records } from '../records.js';

const qrRequest = { amount: 15000, currency: 'THB', reference: 'ORDER-1001' };
const cardRequest = { token_id: 'tok_visa', amount: 15000, currency: 'THB' };
const CONCURRENT = 20;

const paymentCount = async (api: Send): Promise<number> => {
  const page = await api('GET', '/Thai/v1/payments?limit=1');
  mustAnswer('listPayments', page, 200);
  return (page.json as { total: number }).total;
};

/** How many payments a piece of work made: the merchant's total before and after (a deployment's merchant is not new). */
async function paymentsMadeBy(api: Send, work: () => Promise<void>): Promise<number> {
  const before = await paymentCount(api);
  await work();
  return (await paymentCount(api)) - before;
}

const codeOf = (exchange: Exchange): unknown => (exchange.json as { error?: { code?: unknown } } | undefined)?.error?.code;
const replayed = (exchange: Exchange): string | null => exchange.headers.get('idempotent-replayed');

function mustReplay(operationId: string, first: Exchange, again: Exchange): void {
  if (again.status !== first.status || again.text !== first.text) {
    fail(
      `${operationId}: a retry with the same Idempotency-Key and body must answer the first answer again, byte for byte (HTTP ${first.status}: ${first.text.slice(0, 200)})`,
      again,
    );
  }
  mustEqual(replayed(again), 'true', `${operationId}: the replay's Idempotent-Replayed header`, again);
  must(
    again.headers.get('request-id') !== first.headers.get('request-id'),
    `${operationId}: a replay carries a Request-Id of its own, not the first answer's`,
    again,
  );
  mustHaveNoProblems(contractProblems(operation(operationId), again), again);
}

const mustMake = (made: number, expected: number, what: string): void => {
  if (made !== expected) fail(`${what}: expected ${expected} new payment(s), the merchant's payments grew by ${made}`);
};

export const idempotencyGroup: Group = {
  name: 'idempotency',
  title: 'Idempotency-Key: replay, conflict and concurrency',
  checks(kit: Kit) {
    let keys = 0;
    const key = (name: string) => `${kit.runId}-${name}-${(keys += 1)}`;
    const check = (name: string, run: (merchant: Merchant) => Promise<void>, more: Partial<Check> = {}): Check => ({
      name,
      requires: ['state'],
      run: async () => run(await kit.merchant()),
      ...more,
    });
    const parallel = (count: number, request: () => Promise<Exchange>) => Promise.all(Array.from({ length: count }, request));

    return [
      check('a retried request answers the original status and bytes, Idempotent-Replayed: true, a new Request-Id, and makes nothing', async ({ api }) => {
        const k = key('order');
        let first!: Exchange;
        let again!: Exchange;
        const made = await paymentsMadeBy(api, async () => {
          first = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k });
          mustAnswer('createQrCode', first, 200);
          must(replayed(first) === null, 'createQrCode: a first request is no replay, yet it carries Idempotent-Replayed', first);
          again = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k });
        });
        mustReplay('createQrCode', first, again);
        mustMake(made, 1, 'createQrCode twice with one Idempotency-Key');
      }),

      check('a stored 402 and 422 are replayed byte for byte, their request_id included', async ({ api }) => {
        const made = await paymentsMadeBy(api, async () => {
          for (const [status, body] of [
            [402, { token_id: 'tok_declined', amount: 10000, currency: 'THB' }],
            [422, { token_id: 'tok_visa', amount: 10, currency: 'THB' }],
          ] as const) {
            const k = key(`card-${status}`);
            const first = await api('POST', '/Thai/v1/payments', { body, idempotencyKey: k });
            mustAnswer('createCardPayment', first, status);
            mustReplay('createCardPayment', first, await api('POST', '/Thai/v1/payments', { body, idempotencyKey: k }));
          }
        });
        mustMake(made, 1, 'a declined charge (recorded) and a refused one (nothing made), each sent twice');
      }),

      check('the canonical, alias and legacy paths are one operation, and a body idempotency_key is the header', async ({ api }) => {
        const k = key('same-op');
        const made = await paymentsMadeBy(api, async () => {
          const first = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k });
          mustAnswer('createQrCode', first, 200);
          mustReplay('createQrCode', first, await api('POST', '/v1/qr-codes', { body: qrRequest, idempotencyKey: k }));
          mustReplay('createQrCode', first, await api('POST', '/Thai/qr-codes', { body: { ...qrRequest, idempotency_key: k } }));
        });
        mustMake(made, 1, 'one request sent on three paths with one key');
      }),

      check('a 400 is not stored: a corrected retry with the same key is processed', async ({ api }) => {
        const k = key('fix-me');
        const refused = await api('POST', '/Thai/v1/qr-codes', { body: { ...qrRequest, reference: 'R'.repeat(36) }, idempotencyKey: k });
        mustAnswer('createQrCode', refused, 400);
        const corrected = await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k });
        mustAnswer('createQrCode', corrected, 200);
        must(replayed(corrected) === null, 'createQrCode: the corrected request was answered as a replay of the refused one', corrected);
      }),

      check(
        'keys are scoped to the merchant',
        async () => {
          const [a, b] = [await kit.merchant(), await kit.merchant()];
          const k = key('shared');
          const first = await a.api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k });
          const other = await b.api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k });
          mustAnswer('createQrCode', other, 200);
          must(replayed(other) === null, "createQrCode: another merchant's key was replayed", other);
          must(
            (other.json as { payment_id: string }).payment_id !== (first.json as { payment_id: string }).payment_id,
            'createQrCode: two merchants got one payment',
            other,
          );
        },
        { requires: ['state', 'operator'], needs: { operator: "a second merchant sending the first one's key (the operator makes it)" } },
      ),

      ...[
        ['a different body', 'createQrCode', '/Thai/v1/qr-codes', { ...qrRequest, amount: 15001 }],
        ['a different operation', 'createCardPayment', '/Thai/v1/payments', cardRequest],
      ].map(([what, operationId, path, body]) =>
        check(`the same key with ${String(what)} answers 409 idempotency_key_reused and makes nothing`, async ({ api }) => {
          const k = key('once');
          let conflict!: Exchange;
          const made = await paymentsMadeBy(api, async () => {
            mustAnswer('createQrCode', await api('POST', '/Thai/v1/qr-codes', { body: qrRequest, idempotencyKey: k }), 200);
            conflict = await api('POST', String(path), { body, idempotencyKey: k });
          });
          mustAnswer(String(operationId), conflict, 409);
          mustEqual(codeOf(conflict), 'idempotency_key_reused', `${String(operationId)}: error.code`, conflict);
          mustHaveNoProblems(contractProblems(operation(String(operationId)), conflict), conflict);
          mustMake(made, 1, `a QR code, then ${String(what)} with its key`);
        }),
      ),

      ...[
        ['createQrCode', '/Thai/v1/qr-codes', qrRequest],
        ['createCardPayment', '/Thai/v1/payments', cardRequest],
      ].map(([operationId, path, body]) =>
        check(`${String(operationId)}: ${CONCURRENT} concurrent requests with one key make exactly one payment`, async ({ api }) => {
          const k = key('race');
          let answers: Exchange[] = [];
          const made = await paymentsMadeBy(api, async () => {
            answers = await parallel(CONCURRENT, () => api('POST', String(path), { body, idempotencyKey: k }));
          });
          for (const answer of answers) mustHaveNoProblems(contractProblems(operation(String(operationId)), answer), answer);
          const created = answers.filter((a) => a.status === 200);
          const inUse = answers.filter((a) => a.status === 409);
          if (created.length + inUse.length !== CONCURRENT)
            fail(
              `${String(operationId)}: answers other than 200 and 409 idempotency_key_in_use`,
              answers.find((a) => a.status !== 200 && a.status !== 409),
            );
          const wrong = inUse.find((a) => codeOf(a) !== 'idempotency_key_in_use');
          if (wrong) fail(`${String(operationId)}: a concurrent request with the same key is 409 idempotency_key_in_use`, wrong);
          const ids = new Set(created.map((a) => (a.json as { payment_id: string }).payment_id));
          if (ids.size !== 1)
            fail(`${String(operationId)}: ${CONCURRENT} concurrent requests with one key answered ${ids.size} different payments: ${[...ids].join(', ')}`);
          mustEqual(created.filter((a) => replayed(a) === null).length, 1, `${String(operationId)}: answers that are not replays`);
          mustMake(made, 1, `${CONCURRENT} concurrent requests with one key`);
        }),
      ),

      check(`createRefund: ${CONCURRENT} concurrent requests with one key refund once`, async (merchant) => {
        const { paymentId } = await records(merchant).succeededPayment(150000);
        const k = key('refund-race');
        const answers = await parallel(CONCURRENT, () =>
          merchant.api('POST', '/Thai/v1/refunds', { body: { payment_id: paymentId, amount: 1000 }, idempotencyKey: k }),
        );
        for (const answer of answers) mustHaveNoProblems(contractProblems(operation('createRefund'), answer), answer);
        const refunds = new Set(answers.filter((a) => a.status === 200).map((a) => (a.json as { refund_id: string }).refund_id));
        if (refunds.size !== 1) fail(`createRefund: ${CONCURRENT} concurrent requests with one key made ${refunds.size} refunds`);
        const payment = await merchant.api('GET', `/Thai/v1/payments/${paymentId}`);
        mustEqual((payment.json as { refunded_amount: number }).refunded_amount, 1000, 'retrievePayment: refunded_amount after one refund of 1000', payment);
      }),
    ];
  },
};
