import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope } from '../support/http.js';
import { poolUse } from '../../src/adapters/postgres/pool-use.js';
import { startTestServer, usingTestServer } from '../support/test-server.js';

// No background work (expiry sweep, dispatcher, count folds, key-use batches): a pool's use read mid-test is the pages' alone.
const { server, api } = usingTestServer({ backgroundJobs: false, env: { WEBHOOK_DISPATCHER: 'off', API_KEY_USE_FLUSH_MS: '3600000' } });

const order = { amount: 150000, currency: 'THB', reference: 'ORDER-1001' };

async function newQrCode(extra: Record<string, unknown> = {}) {
  const res = await api.post('/Thai/v1/qr-codes', { ...order, ...extra });
  expect(res.status).toBe(200);
  return res.body as { qr_code_id: string; payment_id: string; checkout_url: string; return_url: string | null; expires_at: string };
}

/** A checkout status stream as a browser's EventSource reads it: every `status` event until the server ends it. */
async function openStream(url: string) {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const states: { status: string; expires_at: string }[] = [];
  let buffer = '';
  let first!: () => void;
  const opened = new Promise<void>((resolve) => (first = resolve));
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return states;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (data) {
          states.push(JSON.parse(data[1]!));
          first();
        }
      }
    }
  })();
  await opened;
  return { response, states, ended };
}

describe('checkout_url and return_url', () => {
  it('gives every QR code its checkout page address, and echoes return_url', async () => {
    const plain = await newQrCode();
    expect(plain.checkout_url).toBe(`${server.url}/Thai/pay/${plain.qr_code_id}`);
    expect(plain.return_url).toBeNull();
    const back = await newQrCode({ return_url: 'https://shop.example.com/orders/1001?x=1' });
    expect(back.return_url).toBe('https://shop.example.com/orders/1001?x=1');
  });

  it.each([
    ['http, without WEBHOOK_ALLOW_PRIVATE_URLS', 'http://shop.example.com/done'],
    ['another scheme', 'javascript:alert(1)'],
    ['a relative address', '/orders/1001'],
    ['more than 2048 characters', `https://shop.example.com/${'a'.repeat(2030)}`],
  ])('refuses %s with 400', async (_name, returnUrl) => {
    const res = await api.post('/Thai/v1/qr-codes', { ...order, return_url: returnUrl });
    expectEnvelope(res, 400, res.body.error.code);
    expect(res.body.error.param).toBe('return_url');
  });

  it('accepts http return URLs where private webhook URLs are allowed (development)', async () => {
    const dev = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    try {
      const res = await apiClient(dev.url, await dev.merchant()).post('/Thai/v1/qr-codes', { ...order, return_url: 'http://127.0.0.1:8080/done' });
      expect(res.status).toBe(200);
      expect(res.body.return_url).toBe('http://127.0.0.1:8080/done');
    } finally {
      await dev.stop();
    }
  });
});

describe('GET /Thai/pay/{qr_code_id}', () => {
  it('is server-rendered HTML under a strict Content-Security-Policy, with no inline script and nothing private', async () => {
    const qr = await newQrCode({ metadata: { secret_note: 'VIP-7731' }, client_name: 'Somchai Jaidee', client_bank_account: '123-4-56789-0' });
    const res = await fetch(qr.checkout_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toContain('฿1,500.00');
    expect(html).toContain('ORDER-1001');
    expect(html).toContain('Test merchant');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/); // every script has a src
    expect(html).not.toMatch(/\son\w+=/); // no inline event handlers
    for (const secret of ['VIP-7731', 'Somchai', '123-4-56789-0', qr.payment_id]) expect(html).not.toContain(secret);
  });

  it('sends a customer back at once from a succeeded page (meta refresh, no script needed)', async () => {
    const qr = await newQrCode({ return_url: 'https://shop.example.com/done' });
    await api.post(`/Thai/v1/test/payments/${qr.payment_id}/succeed`);
    const html = await (await fetch(qr.checkout_url)).text();
    expect(html).toContain(
      `<meta http-equiv="refresh" content="3;url=https:&#x2F;&#x2F;shop.example.com&#x2F;done?payment_id&#x3D;${qr.payment_id}&amp;status&#x3D;succeeded">`,
    );
  });

  it('answers an unknown or impossible id, or any other path under /Thai/pay, with a 404 page (no API key asked)', async () => {
    for (const id of ['qr_00000000000000000000000000000000', 'qr_%00x', 'x'.repeat(200), 'assets/missing.js', 'qr_1/elsewhere']) {
      const res = await fetch(`${server.url}/Thai/pay/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });
});

describe('GET /Thai/pay/{qr_code_id}/status', () => {
  it('answers {status, expires_at} alone, as the customer sees it (refunded stays succeeded)', async () => {
    const qr = await newQrCode();
    const status = async () => (await api.get(`/Thai/pay/${qr.qr_code_id}/status`, { apiKey: '' })).body;
    expect(await status()).toEqual({ status: 'pending', expires_at: qr.expires_at });
    await api.post(`/Thai/v1/test/payments/${qr.payment_id}/succeed`);
    expect(await status()).toEqual({ status: 'succeeded', expires_at: qr.expires_at });
    await api.post('/Thai/v1/refunds', { payment_id: qr.payment_id, amount: 150000 }, { idempotencyKey: `r-${qr.payment_id}` });
    expect((await api.get(`/Thai/v1/payments/${qr.payment_id}`)).body.status).toBe('refunded');
    expect(await status()).toEqual({ status: 'succeeded', expires_at: qr.expires_at });
  });

  it('answers 404 qr_code_not_found in the envelope for an unknown id', async () => {
    expectEnvelope(await api.get('/Thai/pay/qr_00000000000000000000000000000000/status'), 404, 'qr_code_not_found');
    expectEnvelope(await api.get('/Thai/pay/qr_00000000000000000000000000000000/events'), 404, 'qr_code_not_found');
  });
});

describe('GET /Thai/pay/{qr_code_id}/events', () => {
  it('streams the status to every open page from one listener, without a database connection per page', async () => {
    const databaseConnections = async () => {
      const url = server.running.runtime.config.databaseUrl;
      if (!url) return 0; // the embedded database has no connections to count
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await client.end();
      return rows[0].n as number;
    };
    const watched = await newQrCode();
    const other = await newQrCode();
    const first = await openStream(`${watched.checkout_url}/events`); // opens the one listener
    const before = await databaseConnections();

    // 20 pages: as many as one client address may keep open.
    const pages = [first, ...(await Promise.all(Array.from({ length: 14 }, () => openStream(`${watched.checkout_url}/events`))))];
    const bystanders = await Promise.all(Array.from({ length: 5 }, () => openStream(`${other.checkout_url}/events`)));
    expect(pages[0]!.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(server.running.checkoutHub.watchers).toBe(20);
    // 20 open pages hold no connection: none is lent out of the pool (a connection kept idle for the next hot statement
    // counts as free, as the pool gauge counts it), and the server has no more than its pool and its listener.
    expect(poolUse(server.running.runtime.db.knex)?.used).toBe(0);
    expect(await databaseConnections()).toBeLessThanOrEqual(Math.max(before, 10 + 1));

    await api.post(`/Thai/v1/test/payments/${watched.payment_id}/succeed`);
    const streams = await Promise.all(pages.map((page) => page.ended)); // each ends after the final status
    for (const states of streams) {
      expect(states).toEqual([
        { status: 'pending', expires_at: watched.expires_at },
        { status: 'succeeded', expires_at: watched.expires_at },
      ]);
    }
    expect(bystanders.every((page) => page.states.length === 1)).toBe(true);
    expect(server.running.checkoutHub.watchers).toBe(5);

    await api.post(`/Thai/v1/test/payments/${other.payment_id}/fail`);
    for (const states of await Promise.all(bystanders.map((page) => page.ended))) expect(states.at(-1)?.status).toBe('failed');
    expect(server.running.checkoutHub.watchers).toBe(0);
  });

  it('ends at once with the final status when the payment is already over', async () => {
    const qr = await newQrCode();
    await api.post(`/Thai/v1/test/payments/${qr.payment_id}/expire`);
    const stream = await openStream(`${qr.checkout_url}/events`);
    expect(await stream.ended).toEqual([{ status: 'expired', expires_at: qr.expires_at }]);
  });
});

describe('the API reference and the contract', () => {
  it('are public: /docs, /openapi.yaml and /openapi.json need no key', async () => {
    for (const path of ['/docs', '/openapi.yaml', '/openapi.json', '/docs/assets/redoc.standalone.js']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
    }
  });
});
