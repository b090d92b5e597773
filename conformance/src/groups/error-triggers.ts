import { notHere, type Kit, type Needs, type Requirement } from '../check.js';
import type { Exchange, Send } from '../http.js';
import { KIT_HOOK_URL, records } from '../records.js';

/** What a merchant has when the errors are driven: records in each state the errors need. */
export interface Fixture {
  /** No key: the public routes, and the 401s. */
  send: Send;
  api: Send;
  pending: () => Promise<string>;
  succeeded: string;
  expiredQrCode: string;
  refund: string;
  /** A webhook endpoint; throws when the service refuses the kit's webhook URL (a deployment's choice). */
  webhook: () => string;
  /** A merchant whose balance was withdrawn, with a succeeded payment it can no longer refund (the operator's records). */
  broke: () => { api: Send; payment: string };
  /** The bank's callback path of a BANK=scb service. */
  bankCallbackPath: () => string;
  /** Requests with a restricted key of the merchant holding only `permission` (the operator issues it). */
  restricted: (permission: string) => Promise<Send>;
  /** An active till of the merchant, and a closed one (made once, on first use). */
  till: () => Promise<string>;
  closedTill: () => Promise<string>;
  /** A merchant of the operator's own, made for one trigger: records there never crowd the kit's merchant. */
  freshMerchant: () => Promise<Send>;
}
export type Trigger = ((f: Fixture) => Promise<Exchange>) & { requires?: Requirement[]; needs?: Needs };

/** A trigger that needs more than the API, and what it needs it for (its check's reason when it is not run here). */
const needing = (requires: Requirement[], needs: string, trigger: (f: Fixture) => Promise<Exchange>): Trigger =>
  Object.assign(trigger, { requires, needs: Object.fromEntries(requires.map((requirement) => [requirement, needs])) });

const thrower =
  (error: Error): (() => never) =>
  () => {
    throw error;
  };

/** Makes, through the API, the records every error trigger needs; the operator's part only where there is an operator. */
export async function makeFixture(kit: Kit): Promise<Fixture> {
  const merchant = await kit.merchant();
  if (kit.target.operator && merchant.merchantId) await kit.target.operator.setPayoutAccount(merchant.merchantId);
  const mine = records(merchant);
  const { paymentId: succeeded } = await mine.succeededPayment(150000);
  const webhook = await mine.webhook(KIT_HOOK_URL).then(
    (id) => () => id,
    (error: Error) => thrower(error),
  );
  let broke: Fixture['broke'] = thrower(notHere('operator', 'a merchant whose balance the operator paid out'));
  if (kit.target.operator) {
    const other = await kit.merchant();
    await kit.target.operator.setPayoutAccount(other.merchantId!);
    const theirs = records(other);
    const { paymentId } = await theirs.succeededPayment(10000);
    await theirs.paidOutWithdrawal(10000);
    broke = () => ({ api: other.api, payment: paymentId });
  }
  const bank = kit.target.bank;
  const restrictedKeys = new Map<string, Promise<string>>();
  const restricted = async (permission: string): Promise<Send> => {
    const operator = kit.target.operator;
    if (!operator || !merchant.merchantId) throw notHere('operator', `a restricted key holding only ${permission} (the operator issues it)`);
    if (!restrictedKeys.has(permission)) restrictedKeys.set(permission, operator.restrictedKey(merchant.merchantId, [permission]));
    const apiKey = await restrictedKeys.get(permission)!;
    return (method, path, options = {}) => kit.send(method, path, { ...options, apiKey });
  };
  const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
  };
  const till = once(() => mine.till('Kit counter'));
  const closedTill = once(async () => {
    const id = await mine.till('Kit closed counter');
    await mine.closeTill(id);
    return id;
  });
  const freshMerchant = async (): Promise<Send> => {
    if (!kit.target.operator) throw notHere('operator', 'a merchant of its own (the operator makes it)');
    return (await kit.merchant()).api;
  };
  return {
    restricted,
    till,
    closedTill,
    freshMerchant,
    send: kit.send,
    api: merchant.api,
    pending: async () => (await mine.pendingPayment(15000)).paymentId,
    succeeded,
    expiredQrCode: (await mine.expiredPayment(25000)).qrCodeId,
    refund: await mine.refund(succeeded, 100),
    webhook,
    broke,
    bankCallbackPath: bank ? () => bank.callbackPath : thrower(notHere('bank', 'the bank callback path of a BANK=scb service')),
  };
}

export const UNKNOWN = {
  payment: 'pay_unknown0000000000000000',
  refund: 'rfd_unknown0000000000000000',
  webhook: 'wh_unknown0000000000000000',
  qr: 'qr_unknown00000000000000000000',
  withdrawal: 'wd_unknown0000000000000000',
  event: 'evt_unknown0000000000000000',
  delivery: 'whd_unknown0000000000000000',
  taxInvoice: 'tiv_unknown0000000000000000',
  till: 'till_unknown000000000000000000000',
  slipVerification: 'slv_unknown0000000000000000',
};
const OVERSIZED = JSON.stringify({ reference: 'x'.repeat(1_200_000) });
/** Over the 3 MiB a slip verification's body may be (its image is at most 2 MiB, base64). */
const OVERSIZED_SLIP = JSON.stringify({ image: 'x'.repeat(3_300_000) });
const TOO_LONG_KEY = 'k'.repeat(256);
let keys = 0;
const newKey = () => `envelope-${process.pid}-${Date.now().toString(36)}-${(keys += 1)}`;

/**
 * A restricted key without the operation's permission (one to read events, or for the events themselves one to read
 * payments): 403 permission_denied, before the body is read.
 */
const forbidden = (method: string, path: string, holding = 'events:read'): Trigger =>
  needing(['operator'], `its 403 needs ${method} ${path} sent with a restricted key holding only ${holding} (the operator issues it)`, async (f) =>
    (await f.restricted(holding))(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
  );

const unauthorized =
  (method: string, path: string): Trigger =>
  (f) =>
    f.send(method, path, { apiKey: 'sk_test_wrong' });

/** The same key twice with different requests: the second answer is the 409. */
const reusedKey =
  (first: (f: Fixture, key: string) => Promise<Exchange>, second: (f: Fixture, key: string) => Promise<Exchange>): Trigger =>
  async (f) => {
    const key = newKey();
    await first(f, key);
    return second(f, key);
  };
const postTwice = (path: string, first: (f: Fixture) => unknown, second: (f: Fixture) => unknown): Trigger =>
  reusedKey(
    (f, key) => f.api('POST', path, { body: first(f), idempotencyKey: key }),
    (f, key) => f.api('POST', path, { body: second(f), idempotencyKey: key }),
  );

const testHelper = (action: string): Record<string, Trigger> => {
  const path = (id: string) => `/Thai/v1/test/payments/${id}/${action}`;
  return {
    400: async (f) => f.api('POST', path(await f.pending()), { idempotencyKey: TOO_LONG_KEY }),
    401: unauthorized('POST', path(UNKNOWN.payment)),
    403: forbidden('POST', path(UNKNOWN.payment)),
    404: (f) => f.api('POST', path(UNKNOWN.payment)),
    // The key's first use was on another payment: same operation, different request.
    409: reusedKey(
      async (f, key) => f.api('POST', path(await f.pending()), { idempotencyKey: key }),
      async (f, key) => f.api('POST', path(await f.pending()), { idempotencyKey: key }),
    ),
    413: async (f) => f.api('POST', path(await f.pending()), { rawBody: OVERSIZED }),
    422: (f) => f.api('POST', path(f.succeeded)),
  };
};

/** A POST on a till (close, roll): the errors every such action documents. */
const tillAction = (action: string): Record<string, Trigger> => {
  const path = (id: string) => `/Thai/v1/tills/${id}/${action}`;
  return {
    400: async (f) => f.api('POST', path(await f.till()), { idempotencyKey: TOO_LONG_KEY }),
    401: unauthorized('POST', path(UNKNOWN.till)),
    403: forbidden('POST', path(UNKNOWN.till)),
    404: (f) => f.api('POST', path(UNKNOWN.till)),
    // The key's first use was on another till: same operation, different request.
    409: reusedKey(
      async (f, key) => f.api('POST', path(await f.till()), { idempotencyKey: key }),
      async (f, key) => f.api('POST', path(await f.closedTill()), { idempotencyKey: key }),
    ),
    413: async (f) => f.api('POST', path(await f.till()), { rawBody: OVERSIZED }),
  };
};

/** The tills and slip verifications of v1.3. */
const inPersonTriggers: Record<string, Record<string, Trigger>> = {
  createTill: {
    400: (f) => f.api('POST', '/Thai/v1/tills', { body: { name: 'n'.repeat(51) } }),
    401: unauthorized('POST', '/Thai/v1/tills'),
    403: forbidden('POST', '/Thai/v1/tills'),
    409: postTwice(
      '/Thai/v1/tills',
      () => ({ name: 'Kit till A' }),
      () => ({ name: 'Kit till B' }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/tills', { rawBody: OVERSIZED }),
    // A merchant of its own fills its 100 active tills; the 101st is refused.
    422: needing(['operator'], 'its 422 needs a merchant of its own to fill with 100 active tills (the operator makes it)', async (f) => {
      const api = await f.freshMerchant();
      for (let i = 0; i < 100; i += 10)
        await Promise.all(Array.from({ length: 10 }, (_, j) => api('POST', '/Thai/v1/tills', { body: { name: `Kit till ${i + j}` } })));
      return api('POST', '/Thai/v1/tills', { body: { name: 'One too many' } });
    }),
  },
  listTills: {
    400: (f) => f.api('GET', '/Thai/v1/tills?limit=0'),
    401: unauthorized('GET', '/Thai/v1/tills'),
    403: forbidden('GET', '/Thai/v1/tills'),
  },
  retrieveTill: {
    400: (f) => f.api('GET', `/Thai/v1/tills/${UNKNOWN.till}?expand=1`),
    401: unauthorized('GET', `/Thai/v1/tills/${UNKNOWN.till}`),
    403: forbidden('GET', `/Thai/v1/tills/${UNKNOWN.till}`),
    404: (f) => f.api('GET', `/Thai/v1/tills/${UNKNOWN.till}`),
  },
  closeTill: tillAction('close'),
  rollTillDisplayUrl: { ...tillAction('display-url/roll'), 422: async (f) => f.api('POST', `/Thai/v1/tills/${await f.closedTill()}/display-url/roll`) },
  createTestTillPayment: {
    400: async (f) => f.api('POST', `/Thai/v1/test/tills/${await f.till()}/payments`, { body: { amount: '150' } }),
    401: unauthorized('POST', `/Thai/v1/test/tills/${UNKNOWN.till}/payments`),
    403: forbidden('POST', `/Thai/v1/test/tills/${UNKNOWN.till}/payments`),
    404: (f) => f.api('POST', `/Thai/v1/test/tills/${UNKNOWN.till}/payments`, { body: { amount: 15000 } }),
    409: reusedKey(
      async (f, key) => f.api('POST', `/Thai/v1/test/tills/${await f.till()}/payments`, { body: { amount: 15000 }, idempotencyKey: key }),
      async (f, key) => f.api('POST', `/Thai/v1/test/tills/${await f.till()}/payments`, { body: { amount: 16000 }, idempotencyKey: key }),
    ),
    413: async (f) => f.api('POST', `/Thai/v1/test/tills/${await f.till()}/payments`, { rawBody: OVERSIZED }),
    422: async (f) => f.api('POST', `/Thai/v1/test/tills/${await f.till()}/payments`, { body: { amount: 99 } }),
  },
  createSlipVerification: {
    400: (f) => f.api('POST', '/Thai/v1/slip-verifications', { body: {} }),
    401: unauthorized('POST', '/Thai/v1/slip-verifications'),
    403: forbidden('POST', '/Thai/v1/slip-verifications'),
    // A real slip (the payload is read first), naming a payment that is not the merchant's.
    404: async (f) => {
      const slip = await f.api('POST', `/Thai/v1/test/payments/${f.succeeded}/slip`);
      const payload = (slip.json as { payload?: string } | undefined)?.payload ?? '';
      return f.api('POST', '/Thai/v1/slip-verifications', { body: { payload, payment_id: UNKNOWN.payment } });
    },
    409: postTwice(
      '/Thai/v1/slip-verifications',
      () => ({ payload: 'not a slip' }),
      () => ({ payload: 'not a slip either' }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/slip-verifications', { rawBody: OVERSIZED_SLIP }),
    422: (f) => f.api('POST', '/Thai/v1/slip-verifications', { body: { payload: 'not a slip' } }),
  },
  retrieveSlipVerification: {
    400: (f) => f.api('GET', `/Thai/v1/slip-verifications/${UNKNOWN.slipVerification}?expand=1`),
    401: unauthorized('GET', `/Thai/v1/slip-verifications/${UNKNOWN.slipVerification}`),
    403: forbidden('GET', `/Thai/v1/slip-verifications/${UNKNOWN.slipVerification}`),
    404: (f) => f.api('GET', `/Thai/v1/slip-verifications/${UNKNOWN.slipVerification}`),
  },
  createTestPaymentSlip: {
    400: async (f) => f.api('POST', `/Thai/v1/test/payments/${await f.pending()}/slip`),
    401: unauthorized('POST', `/Thai/v1/test/payments/${UNKNOWN.payment}/slip`),
    403: forbidden('POST', `/Thai/v1/test/payments/${UNKNOWN.payment}/slip`),
    404: (f) => f.api('POST', `/Thai/v1/test/payments/${UNKNOWN.payment}/slip`),
    409: reusedKey(
      (f, key) => f.api('POST', `/Thai/v1/test/payments/${f.succeeded}/slip`, { idempotencyKey: key }),
      async (f, key) => f.api('POST', `/Thai/v1/test/payments/${await f.pending()}/slip`, { idempotencyKey: key }),
    ),
    413: (f) => f.api('POST', `/Thai/v1/test/payments/${f.succeeded}/slip`, { rawBody: OVERSIZED }),
  },
};

/** How to drive each operation into each error the contract documents for it. */
export const errorTriggers: Record<string, Record<string, Trigger>> = {
  ...inPersonTriggers,
  createQrCode: {
    400: (f) => f.api('POST', '/Thai/v1/qr-codes', { body: { amount: 15000, currency: 'THB', reference: 'R'.repeat(36) } }),
    401: unauthorized('POST', '/Thai/v1/qr-codes'),
    403: forbidden('POST', '/Thai/v1/qr-codes'),
    409: postTwice(
      '/Thai/v1/qr-codes',
      () => ({ amount: 15000, currency: 'THB' }),
      () => ({ amount: 15001, currency: 'THB' }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/qr-codes', { rawBody: OVERSIZED }),
    422: (f) => f.api('POST', '/Thai/v1/qr-codes', { body: { amount: 99, currency: 'THB' } }),
  },
  getQrCodeImage: {
    400: (f) => f.send('GET', `/Thai/qr-codes/${f.expiredQrCode}/image?format=gif`),
    404: (f) => f.send('GET', `/Thai/qr-codes/${UNKNOWN.qr}/image`),
    410: (f) => f.send('GET', `/Thai/qr-codes/${f.expiredQrCode}/image`),
  },
  listPayments: {
    400: (f) => f.api('GET', '/Thai/v1/payments?limit=0'),
    401: unauthorized('GET', '/Thai/v1/payments'),
    403: forbidden('GET', '/Thai/v1/payments'),
  },
  createCardPayment: {
    400: (f) => f.api('POST', '/Thai/v1/payments', { body: { token_id: 'tok_unknown', amount: 10000, currency: 'THB' } }),
    401: unauthorized('POST', '/Thai/v1/payments'),
    403: forbidden('POST', '/Thai/v1/payments'),
    402: (f) => f.api('POST', '/Thai/v1/payments', { body: { token_id: 'tok_declined', amount: 10000, currency: 'THB' } }),
    409: postTwice(
      '/Thai/v1/payments',
      () => ({ token_id: 'tok_visa', amount: 10000, currency: 'THB' }),
      () => ({ token_id: 'tok_visa', amount: 10001, currency: 'THB' }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/payments', { rawBody: OVERSIZED }),
    422: (f) => f.api('POST', '/Thai/v1/payments', { body: { token_id: 'tok_visa', amount: 10000, currency: 'EUR' } }),
  },
  retrievePayment: {
    400: (f) => f.api('GET', `/Thai/v1/payments/${f.succeeded}?expand=refunds`),
    401: unauthorized('GET', `/Thai/v1/payments/${UNKNOWN.payment}`),
    403: forbidden('GET', `/Thai/v1/payments/${UNKNOWN.payment}`),
    404: (f) => f.api('GET', `/Thai/v1/payments/${UNKNOWN.payment}`),
  },
  succeedTestPayment: {
    ...testHelper('succeed'),
    400: async (f) => f.api('POST', `/Thai/v1/test/payments/${await f.pending()}/succeed`, { body: { payer: 'x' } }),
  },
  failTestPayment: testHelper('fail'),
  expireTestPayment: testHelper('expire'),
  createRefund: {
    400: (f) => f.api('POST', '/Thai/v1/refunds', { body: { amount: 100 } }),
    401: unauthorized('POST', '/Thai/v1/refunds'),
    403: forbidden('POST', '/Thai/v1/refunds'),
    404: (f) => f.api('POST', '/Thai/v1/refunds', { body: { payment_id: UNKNOWN.payment } }),
    402: needing(['operator'], 'its 402 needs a merchant whose balance the operator paid out, with a payment it can no longer refund', (f) =>
      f.broke().api('POST', '/Thai/v1/refunds', { body: { payment_id: f.broke().payment } }),
    ),
    409: postTwice(
      '/Thai/v1/refunds',
      (f) => ({ payment_id: f.succeeded, amount: 1 }),
      (f) => ({ payment_id: f.succeeded, amount: 2 }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/refunds', { rawBody: OVERSIZED }),
    422: async (f) => f.api('POST', '/Thai/v1/refunds', { body: { payment_id: await f.pending() } }),
  },
  retrieveRefund: {
    400: (f) => f.api('GET', `/Thai/v1/refunds/${f.refund}?verbose=1`),
    401: unauthorized('GET', `/Thai/v1/refunds/${UNKNOWN.refund}`),
    403: forbidden('GET', `/Thai/v1/refunds/${UNKNOWN.refund}`),
    404: (f) => f.api('GET', `/Thai/v1/refunds/${UNKNOWN.refund}`),
  },
  listTransactions: {
    400: (f) => f.api('GET', '/Thai/v1/transactions?type=bonus'),
    401: unauthorized('GET', '/Thai/v1/transactions'),
    403: forbidden('GET', '/Thai/v1/transactions'),
  },
  createWebhook: {
    400: (f) => f.api('POST', '/Thai/v1/webhooks', { body: { url: KIT_HOOK_URL, events: [] } }),
    401: unauthorized('POST', '/Thai/v1/webhooks'),
    403: forbidden('POST', '/Thai/v1/webhooks'),
    409: postTwice(
      '/Thai/v1/webhooks',
      () => ({ url: `${KIT_HOOK_URL}/a`, events: ['payment.succeeded'] }),
      () => ({ url: `${KIT_HOOK_URL}/b`, events: ['payment.succeeded'] }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/webhooks', { rawBody: OVERSIZED }),
    422: (f) => f.api('POST', '/Thai/v1/webhooks', { body: { url: 'not a url', events: ['payment.succeeded'] } }),
  },
  listWebhooks: {
    400: (f) => f.api('GET', '/Thai/v1/webhooks?offset=-1'),
    401: unauthorized('GET', '/Thai/v1/webhooks'),
    403: forbidden('GET', '/Thai/v1/webhooks'),
  },
  retrieveWebhook: {
    400: (f) => f.api('GET', `/Thai/v1/webhooks/${f.webhook()}?x=1`),
    401: unauthorized('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
    403: forbidden('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
    404: (f) => f.api('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
  },
  deleteWebhook: {
    400: (f) => f.api('DELETE', `/Thai/v1/webhooks/${f.webhook()}?force=true`),
    401: unauthorized('DELETE', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
    403: forbidden('DELETE', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
    404: (f) => f.api('DELETE', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
  },
  retrieveWebhookSecret: {
    400: (f) => f.api('GET', `/Thai/v1/webhooks/${f.webhook()}/secret?reveal=1`),
    401: unauthorized('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}/secret`),
    403: forbidden('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}/secret`),
    404: (f) => f.api('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}/secret`),
  },
  updateWebhook: {
    400: (f) => f.api('PATCH', `/Thai/v1/webhooks/${f.webhook()}`, { body: {} }),
    401: unauthorized('PATCH', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
    403: forbidden('PATCH', `/Thai/v1/webhooks/${UNKNOWN.webhook}`),
    404: (f) => f.api('PATCH', `/Thai/v1/webhooks/${UNKNOWN.webhook}`, { body: { status: 'active' } }),
    413: (f) => f.api('PATCH', `/Thai/v1/webhooks/${f.webhook()}`, { rawBody: OVERSIZED }),
    422: (f) => f.api('PATCH', `/Thai/v1/webhooks/${f.webhook()}`, { body: { url: 'not a url' } }),
  },
  rotateWebhookSecret: {
    400: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/rotate-secret`, { body: { expire_previous_in_seconds: 604_801 } }),
    401: unauthorized('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/rotate-secret`),
    403: forbidden('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/rotate-secret`),
    404: (f) => f.api('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/rotate-secret`),
    409: postTwice(
      `/Thai/v1/webhooks/${UNKNOWN.webhook}/rotate-secret`,
      () => ({ expire_previous_in_seconds: 1 }),
      () => ({ expire_previous_in_seconds: 2 }),
    ),
    413: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/rotate-secret`, { rawBody: OVERSIZED }),
  },
  sendWebhookTest: {
    400: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/test`, { idempotencyKey: TOO_LONG_KEY }),
    401: unauthorized('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/test`),
    403: forbidden('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/test`),
    404: (f) => f.api('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/test`),
    409: reusedKey(
      (f, key) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/test`, { idempotencyKey: key }),
      (f, key) => f.api('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/test`, { idempotencyKey: key }),
    ),
    413: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/test`, { rawBody: OVERSIZED }),
  },
  retryWebhookDelivery: {
    400: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/deliveries/${UNKNOWN.delivery}/retry`, { idempotencyKey: TOO_LONG_KEY }),
    401: unauthorized('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/deliveries/${UNKNOWN.delivery}/retry`),
    403: forbidden('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/deliveries/${UNKNOWN.delivery}/retry`),
    404: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/deliveries/${UNKNOWN.delivery}/retry`),
    409: reusedKey(
      (f, key) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/deliveries/${UNKNOWN.delivery}/retry`, { idempotencyKey: key }),
      (f, key) => f.api('POST', `/Thai/v1/webhooks/${UNKNOWN.webhook}/deliveries/${UNKNOWN.delivery}/retry`, { idempotencyKey: key }),
    ),
    413: (f) => f.api('POST', `/Thai/v1/webhooks/${f.webhook()}/deliveries/${UNKNOWN.delivery}/retry`, { rawBody: OVERSIZED }),
  },
  listEvents: {
    400: (f) => f.api('GET', '/Thai/v1/events?type=bonus'),
    401: unauthorized('GET', '/Thai/v1/events'),
    403: forbidden('GET', '/Thai/v1/events', 'payments:read'),
  },
  retrieveEvent: {
    400: (f) => f.api('GET', `/Thai/v1/events/${UNKNOWN.event}?expand=data`),
    401: unauthorized('GET', `/Thai/v1/events/${UNKNOWN.event}`),
    403: forbidden('GET', `/Thai/v1/events/${UNKNOWN.event}`, 'payments:read'),
    404: (f) => f.api('GET', `/Thai/v1/events/${UNKNOWN.event}`),
  },
  listWebhookDeliveries: {
    400: (f) => f.api('GET', `/Thai/v1/webhooks/${f.webhook()}/deliveries?limit=abc`),
    401: unauthorized('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}/deliveries`),
    403: forbidden('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}/deliveries`),
    404: (f) => f.api('GET', `/Thai/v1/webhooks/${UNKNOWN.webhook}/deliveries`),
  },
  retrieveBalance: {
    400: (f) => f.api('GET', '/Thai/v1/balance?currency=THB'),
    401: unauthorized('GET', '/Thai/v1/balance'),
    403: forbidden('GET', '/Thai/v1/balance'),
  },
  listBalanceTransactions: {
    400: (f) => f.api('GET', '/Thai/v1/balance/transactions?type=bonus'),
    401: unauthorized('GET', '/Thai/v1/balance/transactions'),
    403: forbidden('GET', '/Thai/v1/balance/transactions'),
  },
  createWithdrawal: {
    400: (f) => f.api('POST', '/Thai/v1/withdrawals', { body: { amount: '100' } }),
    401: unauthorized('POST', '/Thai/v1/withdrawals'),
    403: forbidden('POST', '/Thai/v1/withdrawals'),
    402: async (f) => {
      const answer = await f.api('POST', '/Thai/v1/withdrawals', { body: { amount: 2_000_000_000 } });
      // A deployment's merchant withdraws only once the operator has set its payout account.
      if (answer.status === 422 && (answer.json as { error?: { code?: string } }).error?.code === 'payout_account_missing')
        throw notHere('operator', 'its 402 needs a payout account to withdraw to, which the operator sets for the merchant');
      return answer;
    },
    409: postTwice(
      '/Thai/v1/withdrawals',
      () => ({ amount: 100 }),
      () => ({ amount: 101 }),
    ),
    413: (f) => f.api('POST', '/Thai/v1/withdrawals', { rawBody: OVERSIZED }),
    422: (f) => f.api('POST', '/Thai/v1/withdrawals', { body: { amount: 99 } }),
  },
  listWithdrawals: {
    400: (f) => f.api('GET', '/Thai/v1/withdrawals?status=paid'),
    401: unauthorized('GET', '/Thai/v1/withdrawals'),
    403: forbidden('GET', '/Thai/v1/withdrawals'),
  },
  retrieveWithdrawal: {
    400: (f) => f.api('GET', `/Thai/v1/withdrawals/${UNKNOWN.withdrawal}?expand=1`),
    401: unauthorized('GET', `/Thai/v1/withdrawals/${UNKNOWN.withdrawal}`),
    403: forbidden('GET', `/Thai/v1/withdrawals/${UNKNOWN.withdrawal}`),
    404: (f) => f.api('GET', `/Thai/v1/withdrawals/${UNKNOWN.withdrawal}`),
  },
  retrieveStatement: {
    400: (f) => f.api('GET', '/Thai/v1/reports/statements/2026-13'),
    401: unauthorized('GET', '/Thai/v1/reports/statements/2026-10'),
    403: forbidden('GET', '/Thai/v1/reports/statements/2026-10'),
  },
  retrieveSettlementFile: {
    400: (f) => f.api('GET', '/Thai/v1/reports/settlements/2026-02-30'),
    401: unauthorized('GET', '/Thai/v1/reports/settlements/2026-10-31'),
    403: forbidden('GET', '/Thai/v1/reports/settlements/2026-10-31'),
  },
  listTaxInvoices: {
    400: (f) => f.api('GET', '/Thai/v1/reports/tax-invoices?limit=0'),
    401: unauthorized('GET', '/Thai/v1/reports/tax-invoices'),
    403: forbidden('GET', '/Thai/v1/reports/tax-invoices'),
  },
  retrieveTaxInvoice: {
    400: (f) => f.api('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}?expand=1`),
    401: unauthorized('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}`),
    403: forbidden('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}`),
    404: (f) => f.api('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}`),
  },
  retrieveTaxInvoicePdf: {
    400: (f) => f.api('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}/pdf?expand=1`),
    401: unauthorized('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}/pdf`),
    403: forbidden('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}/pdf`),
    404: (f) => f.api('GET', `/Thai/v1/reports/tax-invoices/${UNKNOWN.taxInvoice}/pdf`),
  },
  confirmBankPayment: {
    400: needing(['bank'], 'its 400 needs the bank callback path of a BANK=scb service', (f) =>
      f.send('POST', f.bankCallbackPath(), { body: { transactionId: 'T1' } }),
    ),
    404: (f) => f.send('POST', '/bank/scb/confirmations/not-the-token', { body: {} }),
  },
};
