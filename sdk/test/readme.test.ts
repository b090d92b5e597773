// The README shows exactly the files in examples/ (which tsc compiles), and those examples run against the
// real server: the quick start end to end, and the Express receiver verifying real signed deliveries.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaymentQrClient, type WebhookDelivery } from '../src/index.js';
import { EXAMPLE_BLOCK, exampleFile, readmePath, rootReadmePath, syncReadme } from '../scripts/sync-readme.js';
import { startApi, type TestServer } from './support/api.js';

const examplesDir = new URL('../examples/', import.meta.url);
const readme = readFileSync(readmePath, 'utf8');

describe('README', () => {
  it('shows every example file verbatim, and has no code block in TypeScript or JavaScript that is not one', () => {
    const shown = [...readme.matchAll(EXAMPLE_BLOCK)].map(([, file]) => file);
    const files = readdirSync(examplesDir)
      .filter((name) => /\.(ts|mjs|cjs)$/.test(name))
      .map((name) => `examples/${name}`);
    expect([...shown].sort()).toEqual(files.sort());
    expect(readme.match(/```(ts|js)\n/g)).toHaveLength(shown.length);
    expect(syncReadme(readme), 'README is out of date: run node --import tsx scripts/sync-readme.ts').toBe(readme);
  });

  it('the repository README shows SDK examples only as verbatim copies of files in examples/', () => {
    const rootReadme = readFileSync(rootReadmePath, 'utf8');
    const shown = [...rootReadme.matchAll(EXAMPLE_BLOCK)].map(([, file]) => exampleFile(file ?? ''));
    expect(shown.length).toBeGreaterThan(0);
    for (const file of shown) expect(readdirSync(examplesDir)).toContain(file.replace('examples/', ''));
    expect(syncReadme(rootReadme), 'README.md is out of date: run node --import tsx sdk/scripts/sync-readme.ts').toBe(rootReadme);
  });
});

describe('examples against the real server', () => {
  let api: TestServer;
  let apiKey: string;
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const logged = () => log.mock.calls.map((args) => args.join(' '));

  beforeAll(async () => {
    api = await startApi({ WEBHOOK_DISPATCHER: 'on' });
    ({ apiKey } = await api.merchant());
    process.env.PAYMENT_QR_API_KEY = apiKey;
    process.env.PAYMENT_QR_BASE_URL = api.url;
  });
  afterAll(async () => {
    log.mockRestore();
    await api?.stop();
  });

  it('the quick start runs: QR code, image, payment, partial refund', async () => {
    await import('../examples/quick-start.js');
    const client = new PaymentQrClient({ apiKey, baseUrl: api.url });
    const payments = await client.payments.list().toArray();
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 150_000, reference: 'INV-2026-00042', status: 'succeeded', refunded_amount: 50_000 });
    expect(logged()).toEqual([
      expect.stringMatching(/^<img src="http:\/\/127\.0\.0\.1:\d+\/Thai\/qr-codes\/qr_\w+\/image\?format=svg&size=400"/),
      `Payment ${payments[0]?.payment_id} is succeeded`,
      expect.stringMatching(/^Refund rfd_\w+: succeeded$/),
    ]);
  });

  it('the error example handles a declined card', async () => {
    log.mockClear();
    await import('../examples/errors.js');
    expect(logged()).toEqual(['Card refused: card_declined']);
  });

  it('the pagination example runs', async () => {
    log.mockClear();
    await import('../examples/pagination.js');
    expect(logged()).toEqual([
      expect.stringMatching(/^Received [\d.]+ THB$/),
      expect.stringMatching(/^\d+ pending payments, showing \d+; more: (true|false)$/),
    ]);
  });

  it('the Express receiver accepts the service\u2019s signed deliveries and refuses forged ones', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    process.env.PAYMENT_QR_WEBHOOK_SECRET = secret;
    process.env.PORT = '0';
    const { server } = (await import('../examples/webhook-express.js')) as { server: Server };
    try {
      if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
      const receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/payment-qr`;

      const client = new PaymentQrClient({ apiKey, baseUrl: api.url });
      const webhook = await client.webhooks.create({ url: receiver, events: ['payment.succeeded', 'refund.completed'], secret });
      const qrCode = await client.qrCodes.create({ amount: 42_000, currency: 'THB', metadata: { order_id: 'ORD-1' } });
      await client.testHelpers.succeed(qrCode.payment_id);

      let deliveries: WebhookDelivery[] = [];
      for (let waited = 0; waited < 20_000; waited += 200) {
        deliveries = await client.webhooks.deliveries(webhook.webhook_id).toArray();
        if (deliveries.length > 0 && deliveries.every((d) => d.status !== 'pending')) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(deliveries).toEqual([expect.objectContaining({ event_type: 'payment.succeeded', status: 'delivered', last_response_status: 200 })]);
      expect(logged()).toContain('Order ORD-1 paid: 420 THB');

      const forged = await fetch(receiver, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'evt_1',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,Zm9yZ2Vk',
        },
        body: JSON.stringify({ id: 'evt_1', event: 'payment.succeeded', data: {}, timestamp: new Date().toISOString() }),
      });
      expect(forged.status).toBe(400);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
