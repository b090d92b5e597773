// The promise of issue 5: a QR generation retried after a dropped connection makes exactly one payment.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PaymentQrClient, type QrCode } from '../src/index.js';
import { startApi, type TestServer } from './support/api.js';
import { handled } from '../../scripts/lib/http.js';

let api: TestServer;
const proxies: Server[] = [];
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  for (const proxy of proxies) {
    proxy.closeAllConnections();
    proxy.close();
  }
  await api?.stop();
});

interface Forwarded {
  path: string;
  idempotencyKey: string | undefined;
  status: number;
  replayed: string | null;
  body: string;
}

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A proxy in front of the real server. It forwards every request; for the first QR generation it waits
 * for the server's full answer (the payment is committed) and then destroys the client's socket instead
 * of passing the answer on: the client saw the connection drop and cannot know the payment exists.
 */
async function startDroppingProxy(target: string): Promise<{ url: string; forwarded: Forwarded[] }> {
  const forwarded: Forwarded[] = [];
  let dropped = false;
  const proxy = createServer(
    handled(async (req, res) => {
      const body = await readBody(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers.set(name, value);
      }
      const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: body.length > 0 ? body.toString('utf8') : undefined });
      const text = await upstream.text();
      forwarded.push({
        path: req.url ?? '',
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        status: upstream.status,
        replayed: upstream.headers.get('idempotent-replayed'),
        body: text,
      });
      if (!dropped && req.method === 'POST' && req.url === '/Thai/v1/qr-codes') {
        dropped = true;
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    }),
  );
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, forwarded };
}

it('a QR generation retried after a dropped connection makes exactly one payment, and the client gets it', async () => {
  const { apiKey } = await api.merchant();
  const { url, forwarded } = await startDroppingProxy(api.url);
  const client = new PaymentQrClient({ apiKey, baseUrl: url });

  const qrCode = await client.qrCodes.create({ amount: 150_000, currency: 'THB', reference: 'INV-EXACTLY-ONCE' });

  // Two attempts reached the server with one key: the first made the QR code, the second got it replayed.
  const attempts = forwarded.filter((f) => f.path === '/Thai/v1/qr-codes');
  expect(attempts).toHaveLength(2);
  expect(attempts[0]?.idempotencyKey).toBeDefined();
  expect(attempts[1]?.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
  expect(attempts.map((a) => [a.status, a.replayed])).toEqual([
    [200, null],
    [200, 'true'],
  ]);
  expect(qrCode).toEqual(JSON.parse(attempts[0]?.body ?? '') as QrCode);

  // The merchant has exactly one payment, the one the client was given.
  const direct = new PaymentQrClient({ apiKey, baseUrl: api.url });
  const payments = await direct.payments.list().toArray();
  expect(payments.map((p) => p.payment_id)).toEqual([qrCode.payment_id]);
  expect(payments[0]).toMatchObject({ amount: 150_000, reference: 'INV-EXACTLY-ONCE', status: 'pending' });
  expect((await direct.transactions.list().page()).total).toBe(1);
});

it('without the SDK\u2019s key the same drop would have made two payments (the proxy really drops)', async () => {
  const { apiKey } = await api.merchant();
  const { url } = await startDroppingProxy(api.url);
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ amount: 1_000, currency: 'THB' });
  await expect(fetch(`${url}/Thai/v1/qr-codes`, { method: 'POST', headers, body })).rejects.toThrow(); // dropped
  expect((await fetch(`${url}/Thai/v1/qr-codes`, { method: 'POST', headers, body })).status).toBe(200);
  const direct = new PaymentQrClient({ apiKey, baseUrl: api.url });
  expect((await direct.payments.list().page()).total).toBe(2);
});
