/**
 * The benchmark's merchant endpoint, in its own process as a real one would be: answers 200 at once, verifies every
 * signature with `standardwebhooks`, and reports each arrival (wall-clock ms, sub-millisecond) to its parent.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';

export type ReceiverMessage = { type: 'ready'; port: number } | { type: 'arrival'; id: string; paymentId: string; at: number; verified: boolean };
export type ReceiverCommand = { type: 'secret'; path: string; secret: string };

const send = (message: ReceiverMessage) => process.send?.(message);
const verifiers = new Map<string, Webhook>();
process.on('message', (command: ReceiverCommand) => verifiers.set(command.path, new Webhook(command.secret)));
process.on('disconnect', () => process.exit(0));

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    res.end();
    const body = Buffer.concat(chunks).toString('utf8');
    let verified = false;
    try {
      verifiers.get(req.url ?? '')?.verify(body, req.headers as Record<string, string>);
      verified = verifiers.has(req.url ?? '');
    } catch {
      verified = false;
    }
    const paymentId = (JSON.parse(body) as { data: { payment_id: string } }).data.payment_id;
    send({ type: 'arrival', id: String(req.headers['webhook-id']), paymentId, at, verified });
  });
});
server.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (server.address() as AddressInfo).port }));
