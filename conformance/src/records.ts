import { setTimeout as sleep } from 'node:timers/promises';
import { fail, NotRunHere, type Kit, type Merchant } from './check.js';
import type { Exchange, Send } from './http.js';

/**
 * Where the kit's webhooks point when no receiver is given: loopback of the service, where nothing answers. The pact's
 * URLs live there too; every webhook under it, or under /conformance-kit/, is the kit's own and removed after a group.
 */
export const PLACEHOLDER_HOOKS = 'https://127.0.0.1:8443';
export const KIT_HOOK_URL = `${PLACEHOLDER_HOOKS}/conformance-kit/hooks`;
const isKitWebhook = (url: string): boolean => url.startsWith(`${PLACEHOLDER_HOOKS}/`) || url.includes('/conformance-kit/');

const SANDBOX_PAYOUT_WAIT_MS = 30_000;

type Body = Record<string, unknown>;
const bodyOf = (exchange: Exchange): Body => (exchange.json ?? {}) as Body;

/** Today in Asia/Bangkok (UTC+07:00, no daylight saving), YYYY-MM-DD: the day reports name. */
export const bangkokToday = (now = new Date()): string => new Date(now.getTime() + 7 * 3_600_000).toISOString().slice(0, 10);

/** A record the check needs could not be made: the service broke before the check began, and that is a failure too. */
function made(what: string, exchange: Exchange): Body {
  if (exchange.status !== 200) fail(`setting up (${what}): expected HTTP 200, got HTTP ${exchange.status}`, exchange);
  return bodyOf(exchange);
}

const codeOf = (exchange: Exchange): unknown => (bodyOf(exchange).error as Body | undefined)?.code;

/**
 * Records made the way a merchant makes them: the API and the sandbox's test helpers. Nothing is read from or written
 * to the service's database, so the same states work against any deployment.
 */
export function records(merchant: Merchant) {
  const api: Send = merchant.api;
  const pendingPayment = async (amount: number, reference?: string) => {
    const request = { amount, currency: 'THB', ...(reference === undefined ? {} : { reference }), metadata: { order_id: 'ORD-88213' } };
    const qr = made('a QR code', await api('POST', '/Thai/v1/qr-codes', { body: request }));
    return { paymentId: String(qr.payment_id), qrCodeId: String(qr.qr_code_id), qrData: String(qr.qr_data) };
  };
  const settled = async (amount: number, outcome: 'succeed' | 'fail' | 'expire') => {
    const created = await pendingPayment(amount);
    made(`the test helper ${outcome}`, await api('POST', `/Thai/v1/test/payments/${created.paymentId}/${outcome}`));
    return created;
  };
  const latestDeliveryId = async (webhookId: string) => {
    const page = made('the deliveries', await api('GET', `/Thai/v1/webhooks/${webhookId}/deliveries?limit=1`));
    return String((page.deliveries as Body[])[0]?.delivery_id ?? '');
  };
  const newestTaxInvoiceId = async () => {
    const page = made('the tax invoices', await api('GET', '/Thai/v1/reports/tax-invoices?limit=1'));
    return String((page.tax_invoices as Body[])[0]?.tax_invoice_id ?? '');
  };
  return {
    pendingPayment,
    newestTaxInvoiceId,
    till: async (name: string) => {
      const answer = await api('POST', '/Thai/v1/tills', { body: { name } });
      if (answer.status === 422 && codeOf(answer) === 'till_limit_reached')
        throw new NotRunHere('the merchant has as many active tills as it may hold (100): close some of them first');
      return String(made('a till', answer).till_id);
    },
    closeTill: async (tillId: string) => void made('closing a till', await api('POST', `/Thai/v1/tills/${tillId}/close`)),
    succeededPayment: (amount: number) => settled(amount, 'succeed'),
    failedPayment: (amount: number) => settled(amount, 'fail'),
    expiredPayment: (amount: number) => settled(amount, 'expire'),
    refund: async (paymentId: string, amount?: number, reason?: string) =>
      String(
        made(
          'a refund',
          await api('POST', '/Thai/v1/refunds', { body: { payment_id: paymentId, ...(amount ? { amount } : {}), ...(reason ? { reason } : {}) } }),
        ).refund_id,
      ),
    webhook: async (url: string, events: string[] = ['payment.pending']) => {
      const answer = await api('POST', '/Thai/v1/webhooks', { body: { url, events } });
      if (answer.status === 422 && codeOf(answer) === 'invalid_url') {
        throw new NotRunHere(
          `the service refuses the webhook URL ${url} (a deployment accepts loopback and http URLs only with WEBHOOK_ALLOW_PRIVATE_URLS=true)`,
        );
      }
      if (answer.status === 422 && codeOf(answer) === 'webhook_limit_reached') {
        throw new NotRunHere('the merchant has as many webhook endpoints as it may hold: delete some of them first');
      }
      return String(made('a webhook', answer).webhook_id);
    },
    /** A withdrawal the sandbox payout rail has paid out, so that its state no longer moves. */
    paidOutWithdrawal: async (amount: number, description?: string) => {
      const answer = await api('POST', '/Thai/v1/withdrawals', { body: { amount, ...(description ? { description } : {}) } });
      if (answer.status === 422 && codeOf(answer) === 'payout_account_missing') {
        throw new NotRunHere('the merchant has no payout account (the operator sets it: merchants payout-account)');
      }
      const id = String(made('a withdrawal', answer).withdrawal_id);
      // Looked at again after 50 ms, then less and less often, up to every 250 ms: the sandbox rail takes two of its steps.
      for (let waited = 0, pause = 50; waited <= SANDBOX_PAYOUT_WAIT_MS; waited += pause, pause = Math.min(pause * 2, 250)) {
        const status = made('the withdrawal', await api('GET', `/Thai/v1/withdrawals/${id}`)).status;
        if (status === 'succeeded') return id;
        await sleep(pause);
      }
      return fail(`setting up: withdrawal ${id} was not paid out by the sandbox payout rail within ${SANDBOX_PAYOUT_WAIT_MS / 1000} s`);
    },
    /** The newest event of this merchant, as the events API lists it. */
    latestEventId: async () => String(((made('the events', await api('GET', '/Thai/v1/events?limit=1')).events as Body[])[0]?.id as string | undefined) ?? ''),
    latestDeliveryId,
    /** The sandbox bank's slip of a succeeded payment: its mini QR's payload. */
    slipOf: async (paymentId: string) => String(made('the slip', await api('POST', `/Thai/v1/test/payments/${paymentId}/slip`)).payload),
    slipVerification: async (payload: string) =>
      String(made('a slip verification', await api('POST', '/Thai/v1/slip-verifications', { body: { payload } })).slip_verification_id),
  };
}
export type Records = ReturnType<typeof records>;

/** The ids of a deployment's merchant's webhooks now (null on a merchant of the kit's own: nothing to tidy there). */
export async function webhookIdsNow(kit: Kit): Promise<Set<string> | null> {
  if (!kit.target.apiKey || !kit.keepsState) return null;
  const page = await (await kit.merchant()).api('GET', '/Thai/v1/webhooks?limit=100');
  return new Set(((bodyOf(page).webhooks ?? []) as { webhook_id: string }[]).map((w) => w.webhook_id));
}

/** Removes every webhook a check registered on a deployment's merchant since `before`, whatever its URL. */
export async function removeWebhooksSince(kit: Kit, before: Set<string> | null): Promise<void> {
  if (before === null) return;
  const merchant = await kit.merchant();
  const page = await merchant.api('GET', '/Thai/v1/webhooks?limit=100');
  for (const { webhook_id } of (bodyOf(page).webhooks ?? []) as { webhook_id: string }[]) {
    if (!before.has(webhook_id)) await merchant.api('DELETE', `/Thai/v1/webhooks/${webhook_id}`);
  }
}

/** Removes the webhooks the kit registered on a deployment's merchant (on a merchant of its own there is nothing to tidy). */
export async function removeKitWebhooks(kit: Kit): Promise<void> {
  if (!kit.target.apiKey || !kit.keepsState) return;
  const merchant = await kit.merchant();
  for (let round = 0; round < 20; round += 1) {
    const page = await merchant.api('GET', '/Thai/v1/webhooks?limit=100');
    if (page.status !== 200) return;
    const ours = ((bodyOf(page).webhooks ?? []) as { webhook_id: string; url: string }[]).filter((w) => isKitWebhook(w.url));
    if (ours.length === 0) return;
    for (const webhook of ours) await merchant.api('DELETE', `/Thai/v1/webhooks/${webhook.webhook_id}`);
  }
}
