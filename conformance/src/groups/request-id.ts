import { fail, once, type Check, type Group, type Kit } from '../check.js';
import type { Exchange } from '../http.js';
import { records } from '../records.js';

/** Successes, images, errors, replays, unknown routes, health: one request of each kind. */
async function exchangesOfEveryKind(kit: Kit): Promise<Exchange[]> {
  const merchant = await kit.merchant();
  const { api } = merchant;
  const { paymentId, qrCodeId } = await records(merchant).pendingPayment(15000);
  const key = `${kit.runId}-rid`;
  const requests: (() => Promise<Exchange>)[] = [
    () => api('POST', '/Thai/v1/qr-codes', { body: { amount: 15000, currency: 'THB' } }),
    () => api('POST', '/v1/qr-codes', { body: { amount: 15000, currency: 'THB' }, idempotencyKey: key }),
    () => api('POST', '/Thai/qr-codes', { body: { amount: 15000, currency: 'THB' }, idempotencyKey: key }), // a replay
    () => api('GET', `/Thai/v1/payments/${paymentId}`),
    () => api('GET', '/v1/transactions'),
    () => kit.send('GET', `/Thai/qr-codes/${qrCodeId}/image`),
    () => kit.send('GET', `/Thai/qr-codes/${qrCodeId}/image?format=svg`),
    () => kit.send('GET', '/Thai/v1/payments'),
    () => api('GET', '/Thai/v1/nowhere'),
    () => api('DELETE', '/Thai/v1/payments'),
    () => api('POST', '/Thai/v1/refunds', { rawBody: '{' }),
    () => api('POST', `/Thai/v1/test/payments/${paymentId}/succeed`),
    () => api('POST', `/Thai/v1/test/payments/${paymentId}/succeed`),
    () => kit.send('GET', '/healthz'),
    () => kit.send('GET', '/'),
  ];
  const exchanges: Exchange[] = [];
  for (const request of requests) exchanges.push(await request());
  return exchanges;
}

const line = (e: Exchange) => `${e.method} ${e.path} -> ${e.status}`;

export const requestIdGroup: Group = {
  name: 'request-id',
  title: 'Request-Id on every response',
  checks(kit: Kit) {
    const exchanges = once(() => exchangesOfEveryKind(kit));
    const check = (name: string, run: (all: Exchange[]) => void): Check => ({ name, requires: ['state'], run: async () => run(await exchanges()) });
    return [
      check('every response carries one: successes, images, errors, replays, unknown routes, health', (all) => {
        const missing = all.filter((e) => !e.headers.get('request-id'));
        if (missing.length > 0) fail(`no Request-Id header on ${missing.length} of ${all.length} answers:\n${missing.map(line).join('\n')}`, missing[0]);
        if (new Set(all.map((e) => e.status)).size <= 5)
          fail(`the requests reached only ${new Set(all.map((e) => e.status)).size} kinds of answer: ${all.map(line).join(', ')}`);
      }),
      check('it is unique per request, a replay included', (all) => {
        const seen = new Map<string, Exchange>();
        for (const e of all) {
          const id = e.headers.get('request-id');
          if (id && seen.has(id)) fail(`Request-Id ${id} answered two requests: ${line(seen.get(id)!)} and ${line(e)}`, e);
          if (id) seen.set(id, e);
        }
      }),
      check('it equals error.request_id in every error body', (all) => {
        for (const e of all.filter((x) => x.status >= 400)) {
          const inBody = (e.json as { error?: { request_id?: string } } | undefined)?.error?.request_id;
          if (inBody !== e.headers.get('request-id'))
            fail(`error.request_id ${String(inBody)} differs from the Request-Id header ${String(e.headers.get('request-id'))}`, e);
        }
      }),
    ];
  },
};
