import type { Kit, Merchant, Requirement } from '../check.js';
import { fail } from '../check.js';
import { bangkokToday, records, type Records } from '../records.js';

type Params = Record<string, unknown>;
const num = (params: Params, name: string, fallback: number): number => (typeof params[name] === 'number' ? params[name] : fallback);
const str = (params: Params, name: string): string | undefined => (typeof params[name] === 'string' ? params[name] : undefined);
const DEFAULT_URL = 'https://127.0.0.1:8443/hooks/promptpay';

export interface StateContext {
  kit: Kit;
  /** The interaction's merchant: every state of one interaction shares it. */
  merchant: Merchant;
  records: Records;
}

export interface ProviderState {
  /** What the state needs beyond the API: a deployment reports its interactions as not run here. */
  requires?: Requirement[];
  /** What it needs of them, in its own words: the reason its interactions give when they are not run. */
  needs?: string;
  /** Makes the records, and answers the ids the interaction's path, headers and body read with fromProviderState. */
  setup(context: StateContext, params: Params): Promise<Record<string, string>>;
}

const ids = ({ paymentId, qrCodeId }: { paymentId: string; qrCodeId: string }) => ({ payment_id: paymentId, qr_code_id: qrCodeId });

/**
 * The provider states of the SDK's pact, made through the API and the sandbox's test helpers as a merchant would, so
 * that they work against any deployment with a sandbox key. Each state makes its own records and returns their ids;
 * the interaction reads only those, or the newest of a list, so that what a deployment already holds does not matter.
 * Where an interaction reads everything a merchant holds, the pact says so with the state 'a new merchant'.
 */
export const PROVIDER_STATES: Record<string, ProviderState> = {
  // Lists read whole (totals, every item alike) hold only what the interaction's states make.
  'a new merchant': {
    requires: ['operator'],
    needs: "a merchant holding nothing but the interaction's records (the operator makes it)",
    setup: async () => ({}),
  },

  'a merchant exists': { setup: async () => ({}) },

  'a pending payment exists': {
    setup: async ({ records }, params) => ids(await records.pendingPayment(num(params, 'amount', 150000), str(params, 'reference'))),
  },

  'an expired payment exists': { setup: async ({ records }, params) => ids(await records.expiredPayment(num(params, 'amount', 25000))) },

  // A restricted key is the operator's to issue (`keys create --permissions`); the interaction sends it instead of the merchant's key.
  'a restricted key and a succeeded payment exist': {
    requires: ['operator'],
    needs: 'a restricted key with only the permissions the interaction names (the operator issues it)',
    setup: async ({ kit, merchant, records }, params) => {
      const permissions = (str(params, 'permissions') ?? 'qr_codes:write,payments:read').split(',');
      const apiKey = await kit.target.operator!.restrictedKey(merchant.merchantId!, permissions);
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      return { api_key: apiKey, payment_id: paymentId };
    },
  },

  'a succeeded payment exists': {
    setup: async ({ records }, params) => {
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      const refunded = num(params, 'refunded_amount', 0);
      if (refunded > 0) await records.refund(paymentId, refunded);
      return { payment_id: paymentId };
    },
  },

  'a refund exists': {
    setup: async ({ records }, params) => {
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      return { payment_id: paymentId, refund_id: await records.refund(paymentId, num(params, 'refund_amount', 50000), str(params, 'reason')) };
    },
  },

  'the merchant has a payment history': {
    setup: async ({ records }, params) => {
      for (let i = 0; i < num(params, 'pending', 0); i += 1) await records.pendingPayment(10000 + i);
      for (let i = 0; i < num(params, 'succeeded', 0); i += 1) {
        const { paymentId } = await records.succeededPayment(20000 + i);
        if (i < num(params, 'refunded', 0)) await records.refund(paymentId, 5000);
      }
      return {};
    },
  },

  // The balance is the merchant's whole history, and the payout account is the operator's to set (unless `payout_account` is false).
  'the merchant has a balance': {
    requires: ['operator'],
    needs: "a merchant whose whole history is the interaction's, with the payout account the operator sets",
    setup: async ({ kit, merchant, records }, params) => {
      if (params.payout_account !== false) await kit.target.operator!.setPayoutAccount(merchant.merchantId!);
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      const withdrawn = num(params, 'withdrawn', 0);
      return { payment_id: paymentId, ...(withdrawn > 0 ? { withdrawal_id: await records.paidOutWithdrawal(withdrawn, str(params, 'description')) } : {}) };
    },
  },

  'a QR code was created with an idempotency key': {
    setup: async ({ merchant }, params) => {
      const first = await merchant.api('POST', '/Thai/v1/qr-codes', { body: params.request, idempotencyKey: String(params.idempotency_key) });
      if (first.status !== 200)
        fail(`setting up: the first request with Idempotency-Key ${String(params.idempotency_key)} answered HTTP ${first.status}`, first);
      return {};
    },
  },

  'a webhook exists': {
    setup: async ({ records }, params) => ({
      webhook_id: await records.webhook(str(params, 'url') ?? DEFAULT_URL, Array.isArray(params.events) ? (params.events as string[]) : ['payment.succeeded']),
    }),
  },

  // Deliveries are written with the event; where no dispatcher runs, this one stays as written.
  'a webhook with a pending delivery exists': {
    requires: ['deliveries-wait'],
    needs: "a delivery no dispatcher has attempted yet (a deployment's dispatcher attempts it at once)",
    setup: async ({ records }, params) => {
      const webhookId = await records.webhook(str(params, 'url') ?? DEFAULT_URL, ['payment.pending']);
      await records.pendingPayment(num(params, 'amount', 150000));
      return { webhook_id: webhookId, delivery_id: await records.latestDeliveryId(webhookId) };
    },
  },

  // A statement is the merchant's whole month, so the merchant is a new one (the operator's); its payments carry no fee.
  'the merchant has a statement': {
    requires: ['operator'],
    needs: "a merchant whose month is only the interaction's payments (the operator makes it)",
    setup: async ({ records }, params) => {
      await records.succeededPayment(num(params, 'amount', 150000));
      const today = bangkokToday();
      return { month: today.slice(0, 7), date: today };
    },
  },

  // Tax invoices are issued by the operator, for fees the operator set: a specimen of the month under way.
  'the merchant has a tax invoice': {
    requires: ['operator'],
    needs: 'a tax invoice, which the operator issues for the fees it sets',
    setup: async ({ kit, merchant, records }, params) => {
      await kit.target.operator!.chargeFees(merchant.merchantId!);
      await records.succeededPayment(num(params, 'amount', 150000));
      await kit.target.operator!.issueTaxInvoices();
      return { tax_invoice_id: await records.newestTaxInvoiceId() };
    },
  },

  'a till exists': { setup: async ({ records }, params) => ({ till_id: await records.till(str(params, 'name') ?? 'Front counter') }) },

  'a closed till exists': {
    setup: async ({ records }, params) => {
      const tillId = await records.till(str(params, 'name') ?? 'Front counter');
      await records.closeTill(tillId);
      return { till_id: tillId };
    },
  },

  // The sandbox bank writes the slip of every succeeded test payment; `verified`: it has been checked once already.
  'a succeeded payment has a slip': {
    setup: async ({ records }, params) => {
      const { paymentId } = await records.succeededPayment(num(params, 'amount', 150000));
      const payload = await records.slipOf(paymentId);
      const verified = params.verified === true ? await records.slipVerification(payload) : undefined;
      return { payment_id: paymentId, slip_payload: payload, ...(verified ? { slip_verification_id: verified } : {}) };
    },
  },

  // Events are recorded whether or not a webhook subscribes: these payments make `count` payment.pending events.
  'the merchant has events': {
    setup: async ({ records }, params) => {
      for (let i = 0; i < num(params, 'count', 1); i += 1) await records.pendingPayment(num(params, 'amount', 150000));
      return { event_id: await records.latestEventId() };
    },
  },
};

export const stateContext = (kit: Kit, merchant: Merchant): StateContext => ({ kit, merchant, records: records(merchant) });
