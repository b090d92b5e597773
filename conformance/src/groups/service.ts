import { randomInt } from 'node:crypto';
import { contractProblems } from '../contract-check.js';
import { operation } from '../contract.js';
import { fail, mustAnswer, mustHaveNoProblems, type Check, type Kit } from '../check.js';

/**
 * Before anything else: a QR code the kit makes reads back as made. A mock answers its examples instead, and the checks
 * that need records (states, idempotency, pagination) are then reported as needing a real service.
 */
export const keepsWhatItIsSent = (kit: Kit): Check => ({
  name: 'keeps what it is sent: a new QR code reads back as its payment',
  async run() {
    const { api } = await kit.merchant();
    const amount = randomInt(10_000, 100_000);
    const created = await api('POST', '/Thai/v1/qr-codes', { body: { amount, currency: 'THB', reference: `${kit.runId}-probe`.slice(0, 35) } });
    mustAnswer('createQrCode', created, 200);
    mustHaveNoProblems(contractProblems(operation('createQrCode'), created), created);
    const made = created.json as { payment_id: string; amount: number };
    if (made.amount !== amount) fail(`createQrCode: asked for ${amount} satang, the answer says ${made.amount}: the target does not keep what it is sent (a mock?)`, created);
    const read = await api('GET', `/Thai/v1/payments/${encodeURIComponent(made.payment_id)}`);
    mustAnswer('retrievePayment', read, 200);
    mustHaveNoProblems(contractProblems(operation('retrievePayment'), read), read);
    const payment = read.json as { payment_id: string; amount: number };
    if (payment.payment_id !== made.payment_id || payment.amount !== amount) {
      fail(`retrievePayment: payment ${made.payment_id} of ${amount} satang reads back as ${payment.payment_id} of ${payment.amount}: the target does not keep what it is sent`, read);
    }
  },
});
