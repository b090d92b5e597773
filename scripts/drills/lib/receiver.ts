/**
 * A merchant's webhook endpoint on loopback that can be taken down and brought back on the same port, answer
 * errors or never answer, and that verifies every request with the `standardwebhooks` package.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../lib/processes.js';
import { handled, readBody } from '../../lib/http.js';
import type { DrillContext } from './harness.js';

export type Mode = 'ok' | 'error' | 'hang';

export interface Arrival {
  id: string;
  event: string;
  verified: boolean;
  /** payload.id equals the webhook-id header. */
  consistent: boolean;
  answered: number; // 0: never answered
  at: number;
  /** payload.data.payment_id, when the event names a payment. */
  paymentId: string | null;
}

export interface DrillReceiver {
  url: string;
  arrivals: Arrival[];
  setSecret(secret: string): void;
  mode: Mode;
  /** Closes the listening socket and every connection: senders get ECONNREFUSED. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** How many requests arrived per webhook-id. */
  counts(): Map<string, number>;
  /** Ids answered 2xx at least once. */
  delivered(): Set<string>;
  close(): Promise<void>;
}

/** A receiver on a free loopback port, up at once and closed when the drill ends. */
export async function startDrillReceiver(ctx: DrillContext, path = '/hooks'): Promise<DrillReceiver> {
  const port = await freePort();
  const arrivals: Arrival[] = [];
  let secret: string | null = null;
  let server: Server | null = null;
  const sockets = new Set<Socket>();

  const receiver: DrillReceiver = {
    url: `http://127.0.0.1:${port}${path}`,
    arrivals,
    mode: 'ok',
    setSecret: (s) => void (secret = s),
    async up() {
      if (server) return;
      const s = createServer(
        handled(async (req, res) => {
          const body = await readBody(req).catch(() => '');
          const id = String(req.headers['webhook-id'] ?? '');
          let verified = false;
          let payload: { id?: string; event?: string; data?: { payment_id?: string } } | null = null;
          try {
            payload = JSON.parse(body);
          } catch {
            // consistent stays false
          }
          if (secret) {
            try {
              new Webhook(secret).verify(body, {
                'webhook-id': id,
                'webhook-timestamp': String(req.headers['webhook-timestamp']),
                'webhook-signature': String(req.headers['webhook-signature']),
              });
              verified = true;
            } catch {
              verified = false;
            }
          }
          const arrival: Arrival = {
            id,
            event: String(payload?.event ?? ''),
            verified,
            consistent: payload?.id === id,
            answered: 0,
            at: Date.now(),
            paymentId: payload?.data?.payment_id ?? null,
          };
          arrivals.push(arrival);
          if (receiver.mode === 'hang') return; // destroyed on down() or close()
          arrival.answered = receiver.mode === 'ok' ? 200 : 500;
          res.statusCode = arrival.answered;
          res.end(receiver.mode === 'ok' ? 'ok' : 'boom');
        }),
      );
      s.on('connection', (socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve, reject) => s.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
      server = s;
    },
    async down() {
      const s = server;
      if (!s) return;
      server = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    counts() {
      const counts = new Map<string, number>();
      for (const a of arrivals) counts.set(a.id, (counts.get(a.id) ?? 0) + 1);
      return counts;
    },
    delivered: () => new Set(arrivals.filter((a) => a.answered >= 200 && a.answered < 300).map((a) => a.id)),
    close: () => receiver.down(),
  };
  await receiver.up();
  ctx.defer(() => receiver.close());
  return receiver;
}
