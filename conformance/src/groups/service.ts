import { randomInt } from 'node:crypto';
import { contractProblems } from '../contract-check.js';
import { operation } from '../contract.js';
import { CheckFailure, fail, KeyRejected, mustHaveNoProblems, type Check, type Kit } from '../check.js';
import { maskKeys, type Exchange, type Send } from '../http.js';

/**
 * Before anything else: a QR code the kit makes reads back as made. A mock answers its examples instead: the kit then
 * reports the checks that need records (states, idempotency, pagination) as needing a real service. Whether the answers
 * match the contract is judged too, but only the read-back decides that.
 */
export const keepsWhatItIsSent = (kit: Kit): Check => ({
  name: 'keeps what it is sent: a new QR code reads back as its payment',
  async run() {
    const forgets = (what: string, exchange: Exchange): never => {
      kit.keepsState = false;
      return fail(`${what}: the target does not keep what it is sent (a mock?)`, exchange);
    };
    const merchant = await kit.merchant();
    const api: Send = async (...args) =>
      merchant.api(...args).catch((error: unknown) => {
        kit.reachable = false;
        throw new CheckFailure(`the service cannot be reached, so nothing else is tried: ${(error as Error).message}`);
      });
    const amount = randomInt(10_000, 100_000);
    const created = await api('POST', '/Thai/v1/qr-codes', { body: { amount, currency: 'THB', reference: `${kit.runId}-probe`.slice(0, 35) } });
    if (created.status === 401) {
      const code = (created.json as { error?: { code?: string } } | undefined)?.error?.code ?? 'no error code';
      throw new KeyRejected(`the deployment rejects the API key ${maskKeys(merchant.apiKey)} (HTTP 401 ${code}): check the key and --base-url`);
    }
    const made = (created.json ?? {}) as { payment_id?: string; amount?: number };
    if (created.status !== 200 || made.amount !== amount)
      forgets(`createQrCode: asked for ${amount} satang, answered HTTP ${created.status} with ${String(made.amount)}`, created);
    const read = await api('GET', `/Thai/v1/payments/${encodeURIComponent(String(made.payment_id))}`);
    const payment = (read.json ?? {}) as { payment_id?: string; amount?: number };
    if (read.status !== 200 || payment.payment_id !== made.payment_id || payment.amount !== amount) {
      forgets(
        `retrievePayment: payment ${String(made.payment_id)} of ${amount} satang reads back as HTTP ${read.status}, ${String(payment.payment_id)} of ${String(payment.amount)}`,
        read,
      );
    }
    mustHaveNoProblems(contractProblems(operation('createQrCode'), created), created);
    mustHaveNoProblems(contractProblems(operation('retrievePayment'), read), read);
  },
});
