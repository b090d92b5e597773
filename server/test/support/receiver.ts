import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { handled, readBody } from '../../../scripts/lib/http.js';
import { sharedByFile } from './shared-by-file.js';

/** One request as the merchant's endpoint saw it. */
export interface ReceivedDelivery {
  path: string;
  id: string;
  timestamp: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: any;
  /** Did `standardwebhooks` accept the signature with the secret registered for this path? */
  verified: boolean;
  /** What the endpoint answered; 0 when it never answered (a time-out on the sender's side). */
  answered: number;
}

/** How an endpoint answers the n-th request (1-based) it gets for one webhook-id: a status, later (a promise), or never. */
export type Answer = (delivery: ReceivedDelivery, nthForId: number) => number | Promise<number> | 'hang';

export interface Receiver {
  /** http://127.0.0.1:<port>: a real merchant endpoint on loopback. */
  origin: string;
  port: number;
  /** Every request, in arrival order. */
  deliveries: ReceivedDelivery[];
  /** TCP connections accepted, so a test can prove nothing was sent. */
  connections(): number;
  /** Sets how `path` answers and the secret its deliveries are verified with. */
  endpoint(path: string, options?: { secret?: string; answer?: Answer }): string;
  verifyWith(path: string, secret: string): void;
  at(path: string): ReceivedDelivery[];
  close(): Promise<void>;
}

function verify(secret: string | undefined, body: string, req: IncomingMessage): boolean {
  if (!secret) return false;
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: ReceivedDelivery[] = [];
  const endpoints = new Map<string, { secret?: string; answer: Answer }>();
  let connections = 0;

  const server: Server = createServer(
    handled(async (req, res) => {
      const body = await readBody(req);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const endpoint = endpoints.get(path);
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {
        // recorded as received; the test's assertions on payload fail
      }
      const delivery: ReceivedDelivery = {
        path,
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        headers: req.headers,
        body,
        payload,
        verified: verify(endpoint?.secret, body, req),
        answered: 0,
      };
      deliveries.push(delivery);
      const nth = deliveries.filter((d) => d.path === path && d.id === delivery.id).length;
      const answer = await (endpoint?.answer ?? (() => 200))(delivery, nth);
      if (answer === 'hang') return; // never answers; closed when the receiver closes
      delivery.answered = answer;
      res.statusCode = answer;
      if (answer >= 300 && answer < 400) res.setHeader('location', `${origin}/redirected`);
      res.end('ok');
    }),
  );
  server.on('connection', () => void connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    port,
    deliveries,
    connections: () => connections,
    endpoint(path, options = {}) {
      endpoints.set(path, { secret: options.secret ?? endpoints.get(path)?.secret, answer: options.answer ?? (() => 200) });
      return `${origin}${path}`;
    },
    verifyWith(path, secret) {
      const endpoint = endpoints.get(path) ?? { answer: () => 200 };
      endpoints.set(path, { ...endpoint, secret });
    },
    at: (path) => deliveries.filter((d) => d.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The file's receiver; set up after the server, it closes before the server stops, so no delivery is left hanging. */
export const usingReceiver = (): Receiver => sharedByFile('the receiver', startReceiver, (receiver) => receiver.close());

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Polls until `probe` returns something truthy; no timed assertions, just a generous deadline. */
export async function eventually<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
