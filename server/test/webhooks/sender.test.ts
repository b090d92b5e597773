import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender.js';
import { standardWebhookSigner } from '../../src/adapters/webhooks/standard-signer.js';
import type { SignedDelivery } from '../../src/ports/webhook-delivery.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({ id: 'evt_1', event: 'payment.succeeded', data: { payment_id: 'pay_1' }, timestamp: '2026-11-20T08:00:00.000Z' });
let receiver: Receiver;
const sender = httpWebhookSender();

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

function delivery(path: string): SignedDelivery {
  receiver.verifyWith(path, secret);
  const headers = standardWebhookSigner().headersFor(secret, 'evt_1', new Date(), body);
  return { target: { url: `${receiver.origin}${path}`, address: '127.0.0.1', family: 4 }, headers, body, timeoutMs: 2_000 };
}

describe('httpWebhookSender', () => {
  it('POSTs the exact body with Standard Webhooks headers that standardwebhooks verifies', async () => {
    expect(await sender.send(delivery('/signed'))).toEqual({ kind: 'answered', status: 200 });
    const [received] = receiver.at('/signed');
    expect(received).toMatchObject({ id: 'evt_1', body, verified: true });
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
  });

  it('connects to the checked address, never to a fresh DNS answer for the host', async () => {
    const url = `http://rebinding-host.invalid:${receiver.port}/pinned`;
    const outcome = await sender.send({ ...delivery('/pinned'), target: { url, address: '127.0.0.1', family: 4 } });
    expect(outcome).toEqual({ kind: 'answered', status: 200 });
    expect(receiver.at('/pinned')[0]?.headers.host).toBe(`rebinding-host.invalid:${receiver.port}`);
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    receiver.endpoint('/moved', { secret, answer: () => 307 });
    expect(await sender.send(delivery('/moved'))).toEqual({ kind: 'answered', status: 307 });
    expect(receiver.at('/redirected')).toEqual([]);
  });

  it('gives up after the time-out: no answer', async () => {
    receiver.endpoint('/silent', { secret, answer: () => 'hang' });
    const outcome = await sender.send({ ...delivery('/silent'), timeoutMs: 200 });
    expect(outcome).toMatchObject({ kind: 'no_answer', error: expect.stringMatching(/No answer within 200 ms/) });
    expect(receiver.at('/silent')).toHaveLength(1);
  });

  it('reports a refused connection as no answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await sender.send({ ...delivery('/x'), target: { url: `http://127.0.0.1:${port}/x`, address: '127.0.0.1', family: 4 } });
    expect(outcome).toMatchObject({ kind: 'no_answer', error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
