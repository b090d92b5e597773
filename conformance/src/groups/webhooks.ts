import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { contractProblems } from '../contract-check.js';
import { describeErrors, operation, schemaRef, validatorFor } from '../contract.js';
import { fail, must, mustAnswer, mustEqual, mustHaveNoProblems, type Check, type Group, type Kit, type Merchant } from '../check.js';
import { records } from '../records.js';
import { startReceiver, type Received, type Receiver } from '../receiver.js';

/** How long a delivery may take to arrive, and to read `delivered` (a deployment's dispatcher polls at worst every 5 s). */
const ARRIVAL_MS = 30_000;

interface Endpoint {
  merchant: Merchant;
  receiver: Receiver;
  webhookId: string;
  secret: string;
}

async function registerEndpoint(kit: Kit): Promise<Endpoint> {
  const { host, port, publicUrl } = kit.target.receiver!;
  const receiver = await startReceiver({ host, port, ...(publicUrl ? { publicUrl } : {}), path: `/conformance-kit/${kit.runId}` });
  try {
    const merchant = await kit.merchant();
    const webhookId = await records(merchant).webhook(receiver.url, ['payment.pending', 'payment.succeeded']);
    const secret = await merchant.api('GET', `/Thai/v1/webhooks/${webhookId}/secret`);
    mustAnswer('retrieveWebhookSecret', secret, 200);
    return { merchant, receiver, webhookId, secret: (secret.json as { secret: string }).secret };
  } catch (error) {
    await receiver.stop();
    throw error;
  }
}

/** The Standard Webhooks signature of a delivery, verified with a secret the API gave; the payload judged by the contract. */
function mustBeSigned(delivery: Received, secret: string, what: string): void {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers);
  } catch (error) {
    fail(
      `${what}: webhook-signature does not verify with the endpoint's signing secret (Standard Webhooks: ${(error as Error).message})\n  webhook-id ${delivery.headers['webhook-id']}, webhook-timestamp ${delivery.headers['webhook-timestamp']}, webhook-signature ${delivery.headers['webhook-signature']}`,
    );
  }
  const validate = validatorFor(schemaRef(delivery.payload?.event === 'webhook.test' ? 'TestEvent' : 'Event'));
  if (!validate(delivery.payload))
    fail(`${what}: the payload does not match the contract: ${describeErrors(validate.errors)}\n  ${delivery.body.slice(0, 400)}`);
}

async function arrival(receiver: Receiver, matches: (delivery: Received) => boolean, what: string): Promise<Received> {
  const delivery = await receiver.waitFor(matches, ARRIVAL_MS);
  if (!delivery) fail(`${what}: nothing arrived at ${receiver.url} within ${ARRIVAL_MS / 1000} s (${receiver.received.length} other deliveries came)`);
  return delivery!;
}

/** The endpoint of each run, made on the group's first check (and only then), removed after the group. */
const endpoints = new WeakMap<Kit, () => Promise<Endpoint> | undefined>();

/** With --receiver-host: deliveries reach a receiver the kit starts, signed as Standard Webhooks, and read as delivered. */
export const webhooksGroup: Group = {
  name: 'webhooks',
  title: 'webhook delivery and Standard Webhooks signatures',
  checks(kit: Kit) {
    let started: Promise<Endpoint> | undefined;
    const endpoint = () => (started ??= registerEndpoint(kit));
    endpoints.set(kit, () => started);
    const earlier: { test?: { deliveryId: string; webhookMessageId: string } } = {};
    /** A check reading what reached the kit's receiver; `arriving`: what it waits for there (its reason without one). */
    const check = (name: string, arriving: string, run: (e: Endpoint) => Promise<void>): Check => ({
      name,
      requires: ['state', 'receiver'],
      needs: { receiver: `${arriving} at a receiver of the kit's that the service can reach` },
      run: async () => run(await endpoint()),
    });
    const sendTest = async (e: Endpoint) => {
      const sent = await e.merchant.api('POST', `/Thai/v1/webhooks/${e.webhookId}/test`, { idempotencyKey: `${kit.runId}-test-${Date.now()}` });
      mustAnswer('sendWebhookTest', sent, 200);
      mustHaveNoProblems(contractProblems(operation('sendWebhookTest'), sent), sent);
      const delivery = sent.json as { delivery_id: string; event_id: string };
      return { ...delivery, arrived: await arrival(e.receiver, (d) => d.payload?.id === delivery.event_id, `the test event ${delivery.event_id}`) };
    };

    return [
      check('a test event arrives signed with the endpoint secret, and its delivery reads delivered', 'a webhook.test delivery', async (e) => {
        const { delivery_id, arrived } = await sendTest(e);
        mustBeSigned(arrived, e.secret, 'webhook.test');
        earlier.test = { deliveryId: delivery_id, webhookMessageId: arrived.headers['webhook-id'] ?? '' };
        for (const deadline = Date.now() + ARRIVAL_MS; ; await sleep(250)) {
          const list = await e.merchant.api('GET', `/Thai/v1/webhooks/${e.webhookId}/deliveries?limit=100`);
          mustAnswer('listWebhookDeliveries', list, 200);
          mustHaveNoProblems(contractProblems(operation('listWebhookDeliveries'), list), list);
          const record = (list.json as { deliveries: { delivery_id: string; status: string }[] }).deliveries.find((d) => d.delivery_id === delivery_id);
          if (record?.status === 'delivered') break;
          if (Date.now() > deadline) fail(`delivery ${delivery_id} arrived, answered 204, and still reads ${String(record?.status)}`, list);
        }
      }),

      check(
        'payment events arrive as the payment moves: payment.pending, then payment.succeeded, each signed',
        'payment.pending and payment.succeeded deliveries',
        async (e) => {
          const { paymentId } = await records(e.merchant).succeededPayment(15000);
          for (const kind of ['payment.pending', 'payment.succeeded']) {
            const arrived = await arrival(e.receiver, (d) => d.payload?.event === kind && d.payload.data?.payment_id === paymentId, `${kind} of ${paymentId}`);
            mustBeSigned(arrived, e.secret, kind);
            mustEqual(arrived.payload?.data?.status, kind.split('.')[1], `${kind}: data.status`);
          }
        },
      ),

      check('a redelivery keeps its webhook-id and is signed again', 'a delivery and its redelivery', async (e) => {
        if (!earlier.test) {
          const sent = await sendTest(e);
          earlier.test = { deliveryId: sent.delivery_id, webhookMessageId: sent.arrived.headers['webhook-id'] ?? '' };
        }
        const { deliveryId, webhookMessageId } = earlier.test;
        const before = e.receiver.received.filter((d) => d.headers['webhook-id'] === webhookMessageId).length;
        const retried = await e.merchant.api('POST', `/Thai/v1/webhooks/${e.webhookId}/deliveries/${deliveryId}/retry`, {
          idempotencyKey: `${kit.runId}-retry`,
        });
        mustAnswer('retryWebhookDelivery', retried, 200);
        mustEqual((retried.json as { delivery_id: string }).delivery_id, deliveryId, 'retryWebhookDelivery: delivery_id', retried);
        const again = await arrival(
          e.receiver,
          (d) =>
            d.headers['webhook-id'] === webhookMessageId &&
            e.receiver.received.filter((x) => x.headers['webhook-id'] === webhookMessageId).indexOf(d) >= before,
          `the redelivery of ${deliveryId}`,
        );
        mustBeSigned(again, e.secret, 'the redelivery');
      }),

      check('after a secret rotation a delivery carries both signatures, each verifying', 'a delivery signed after a secret rotation', async (e) => {
        const rotated = await e.merchant.api('POST', `/Thai/v1/webhooks/${e.webhookId}/rotate-secret`, {
          body: { expire_previous_in_seconds: 3600 },
          idempotencyKey: `${kit.runId}-rotate`,
        });
        mustAnswer('rotateWebhookSecret', rotated, 200);
        const fresh = (rotated.json as { secret: string }).secret;
        const { arrived } = await sendTest(e);
        const signatures = (arrived.headers['webhook-signature'] ?? '').split(' ').filter(Boolean);
        must(
          signatures.length >= 2,
          `after a rotation a delivery carries the previous and the new signature; got webhook-signature: ${arrived.headers['webhook-signature']}`,
        );
        mustBeSigned(arrived, e.secret, 'signed with the previous secret');
        mustBeSigned(arrived, fresh, 'signed with the new secret');
        e.secret = fresh;
      }),
    ];
  },
  async cleanup(kit) {
    const e = await endpoints
      .get(kit)?.()
      ?.catch(() => undefined);
    if (!e) return;
    await e.merchant.api('DELETE', `/Thai/v1/webhooks/${e.webhookId}`).catch(() => undefined);
    await e.receiver.stop();
  },
};
