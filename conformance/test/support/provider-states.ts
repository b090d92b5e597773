import type { VerifierOptions } from '@pact-foundation/pact';
import { PaymentQrClient, type CreateQrCodeParams } from '@payment-qr/sdk';
import { seeder, type Seeder } from './seed.js';
import type { Service } from './service.js';

type StateHandlers = NonNullable<VerifierOptions['stateHandlers']>;
type Params = Record<string, unknown>;
const num = (params: Params, name: string, fallback: number): number => (typeof params[name] === 'number' ? params[name] : fallback);
const str = (params: Params, name: string): string | undefined => (typeof params[name] === 'string' ? params[name] : undefined);
const DEFAULT_URL = 'https://127.0.0.1:8443/hooks/promptpay';

/**
 * Provider states seed the real database through the service's use cases, each in a merchant of its own, and return
 * the ids and the merchant's key, which the interaction's path, headers and body read with fromProviderState.
 */
export function providerStates(service: Service): StateHandlers {
  const state = (seed: (records: Seeder, params: Params, apiKey: string) => Promise<Record<string, string>>) => async (params?: unknown) => {
    const { merchant, apiKey } = await service.merchant();
    return { api_key: apiKey, ...(await seed(seeder(service, merchant), (params ?? {}) as Params, apiKey)) };
  };
  const ids = ({ paymentId, qrCodeId }: { paymentId: string; qrCodeId: string }) => ({ payment_id: paymentId, qr_code_id: qrCodeId });

  return {
    'a merchant exists': state(async () => ({})),

    'a pending payment exists': state(async (records, params) => ids(await records.pendingPayment(num(params, 'amount', 150000), str(params, 'reference')))),

    'an expired payment exists': state(async (records, params) => ids(await records.expiredPayment(num(params, 'amount', 25000)))),

    'a succeeded payment exists': state(async (records, params) => {
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      const refunded = num(params, 'refunded_amount', 0);
      if (refunded > 0) await records.refund(paymentId, refunded);
      return { payment_id: paymentId };
    }),

    'a refund exists': state(async (records, params) => {
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      return { payment_id: paymentId, refund_id: await records.refund(paymentId, num(params, 'refund_amount', 50000), str(params, 'reason')) };
    }),

    'the merchant has a payment history': state(async (records, params) => {
      for (let i = 0; i < num(params, 'pending', 0); i += 1) await records.pendingPayment(10000 + i);
      for (let i = 0; i < num(params, 'succeeded', 0); i += 1) {
        const { paymentId } = await records.succeededPayment(20000 + i);
        if (i < num(params, 'refunded', 0)) await records.refund(paymentId, 5000);
      }
      return {};
    }),

    // Balance and withdrawals: a payout account (set as the operator would) unless `payout_account` is false.
    'the merchant has a balance': state(async (records, params) => {
      if (params.payout_account !== false) await records.payoutAccount();
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      const withdrawn = num(params, 'withdrawn', 0);
      return { payment_id: paymentId, ...(withdrawn > 0 ? { withdrawal_id: await records.paidOutWithdrawal(withdrawn, str(params, 'description')) } : {}) };
    }),

    // Idempotency lives in the HTTP adapter, so the first request goes over HTTP, as a merchant's would.
    'a QR code was created with an idempotency key': state(async (_records, params, apiKey) => {
      const client = new PaymentQrClient({ apiKey, baseUrl: service.url, maxRetries: 0 });
      await client.qrCodes.create(params.request as CreateQrCodeParams, { idempotencyKey: String(params.idempotency_key) });
      return {};
    }),

    'a webhook exists': state(async (records, params) => ({
      webhook_id: await records.webhook(str(params, 'url') ?? DEFAULT_URL, Array.isArray(params.events) ? (params.events as string[]) : ['payment.succeeded']),
    })),

    // Deliveries are written with the event; the verifying service runs no dispatcher, so this one stays pending.
    'a webhook with a pending delivery exists': state(async (records, params) => {
      const webhookId = await records.webhook(str(params, 'url') ?? DEFAULT_URL, ['payment.pending']);
      await records.pendingPayment(num(params, 'amount', 150000));
      return { webhook_id: webhookId, delivery_id: await records.latestDeliveryId(webhookId) };
    }),

    // Events are recorded whether or not a webhook subscribes: these payments make `count` payment.pending events.
    'the merchant has events': state(async (records, params) => {
      for (let i = 0; i < num(params, 'count', 1); i += 1) await records.pendingPayment(num(params, 'amount', 150000));
      return { event_id: await records.latestEventId() };
    }),
  };
}
