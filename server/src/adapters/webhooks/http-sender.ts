import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome } from '../../domain/delivery-schedule.js';
import type { DeliverableUrl, WebhookSender } from '../../ports/webhook-delivery.js';

/** Resolves the host to the address the guard checked, never to a fresh DNS answer (DNS rebinding). */
const pinnedLookup =
  (target: DeliverableUrl): LookupFunction =>
  (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };

const describe = (error: Error & { code?: string }): string => (error.code ? `${error.code}: ${error.message}` : error.message);

// Idle connections are kept briefly (below the usual 5 s server keep-alive) so a busy endpoint is not re-dialled, and
// TLS is not renegotiated, for every event. A pooled connection was opened to an address checked at the time.
const IDLE_CONNECTION_MS = 2_000;

/**
 * POSTs with node's own client: redirects are never followed (a 3xx is just an answer), new connections go to the
 * checked address, and the exchange up to the status line must finish within the time-out.
 */
export function httpWebhookSender(): WebhookSender {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };
  return {
    send({ target, headers, body, timeoutMs }) {
      return new Promise<AttemptOutcome>((resolve) => {
        const url = new URL(target.url);
        const client = url.protocol === 'https:' ? https : http;
        const request = client.request(url, {
          method: 'POST',
          agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
          lookup: pinnedLookup(target),
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'payment-qr-webhooks/1' },
        });
        // Also bounds reading the answer's body, which is drained and ignored.
        const timer = setTimeout(() => request.destroy(Object.assign(new Error(`No answer within ${timeoutMs} ms.`), { code: 'TIMEOUT' })), timeoutMs);
        request.once('close', () => clearTimeout(timer));
        request.once('response', (response) => {
          resolve({ kind: 'answered', status: response.statusCode ?? 0 });
          response.resume();
        });
        request.once('error', (error) => resolve({ kind: 'no_answer', error: describe(error) }));
        request.end(body);
      });
    },
  };
}
