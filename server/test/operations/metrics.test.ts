import { describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/app/deliver-webhooks.js';
import { apiClient, expectEnvelope } from '../support/http.js';
import { histogramCounts, scrape, valueOf } from '../support/metrics.js';
import { usingReceiver } from '../support/receiver.js';
import { manualClock, startTestServer, usingTestServer } from '../support/test-server.js';
import { subscribe } from '../webhooks/fixtures.js';

const clock = manualClock(new Date('2026-11-23T10:00:00.000Z'));

const { server } = usingTestServer({ clock, env: { METRICS: 'on', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
const receiver = usingReceiver();

const scrapeApiPort = () => scrape(`${server.url}/metrics`);

describe('GET /metrics (METRICS=on)', () => {
  it('counts requests by route and status with latency, and payments created and completed by status', async () => {
    const api = apiClient(server.url, await server.merchant());
    const before = await scrapeApiPort();
    const qr = (body: object, options = {}) => api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB', ...body }, options);
    const first = await qr({}, { idempotencyKey: 'metrics-1' });
    expect((await qr({}, { idempotencyKey: 'metrics-1' })).headers.get('idempotent-replayed')).toBe('true'); // a replay creates nothing
    const second = await qr({});
    await qr({});
    expect((await api.post(`/Thai/v1/test/payments/${first.body.payment_id}/succeed`)).status).toBe(200);
    expect((await api.post(`/Thai/v1/test/payments/${second.body.payment_id}/expire`)).status).toBe(200);
    expect((await api.post('/Thai/v1/payments', { token_id: 'tok_declined', amount: 10000, currency: 'THB' })).status).toBe(402);
    expect((await api.get('/Thai/v1/nowhere/pay_1')).status).toBe(404);

    const after = await scrapeApiPort();
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('pqr_http_requests_total', { method: 'POST', route: '/Thai/v1/qr-codes', status: '200' })).toBe(4);
    expect(moved('pqr_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1); // raw paths never become series
    expect(moved('pqr_http_requests_total', { method: 'POST', route: '/Thai/v1/payments', status: '402' })).toBe(1);
    const histogram = after.find((f) => f.name === 'pqr_http_request_duration_seconds');
    expect(histogram?.type).toBe('HISTOGRAM');
    expect(Object.keys(histogram!.metrics[0]!.buckets!)).toContain('0.05'); // (the parser merges a histogram's label sets)

    expect(moved('pqr_payments_created_total', { method: 'qr' })).toBe(3);
    expect(moved('pqr_payments_created_total', { method: 'card' })).toBe(1);
    expect(moved('pqr_payments_completed_total', { status: 'succeeded' })).toBe(1);
    expect(moved('pqr_payments_completed_total', { status: 'expired' })).toBe(1);
    expect(moved('pqr_payments_completed_total', { status: 'failed' })).toBe(1); // the declined card
  });

  it('times requests by method, route pattern and status, in both lanes', async () => {
    const api = apiClient(server.url, await server.merchant());
    const histogram = 'pqr_http_request_duration_seconds';
    const before = await histogramCounts(`${server.url}/metrics`, histogram);
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' }); // Express: the key is new
    await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' }); // the hot lane
    await api.get(`/Thai/v1/payments/${qr.body.payment_id}`); // the hot lane
    await api.get('/Thai/v1/payments/pay_unknown'); // the hot lane, 404
    await api.post('/Thai/v1/qr-codes', { amount: 1, currency: 'THB' }); // the hot lane, 422
    await api.send('PUT', '/Thai/v1/qr-codes', {}); // 405
    await api.get('/v1/refunds/rfd_unknown'); // Express, an error answered after routing
    const after = await histogramCounts(`${server.url}/metrics`, histogram);
    const moved = (labels: Record<string, string>) => {
      const same = (other: Record<string, string>) =>
        Object.keys(other).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => other[k] === v);
      const count = (series: typeof after) => series.find((s) => same(s.labels))?.count ?? 0;
      return count(after) - count(before);
    };
    expect(moved({ method: 'POST', route: '/Thai/v1/qr-codes', status: '200' })).toBe(2);
    expect(moved({ method: 'POST', route: '/Thai/v1/qr-codes', status: '422' })).toBe(1);
    expect(moved({ method: 'GET', route: '/Thai/v1/payments/:payment_id', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/Thai/v1/payments/:payment_id', status: '404' })).toBe(1);
    expect(moved({ method: 'PUT', route: 'unmatched', status: '405' })).toBe(1);
    expect(moved({ method: 'GET', route: '/v1/refunds/:refund_id', status: '404' })).toBe(1);
    expect(after.every((s) => Object.keys(s.labels).sort().join() === 'method,route,status')).toBe(true);
  });

  it("shows the webhook backlog: pending deliveries, the oldest one's age, and attempts by outcome", async () => {
    const api = apiClient(server.url, await server.merchant());
    await subscribe(api, receiver, '/metrics-hook', ['payment.pending']);
    await deliverDueWebhooks(server.running.runtime.services); // whatever earlier tests left due
    const before = await scrapeApiPort();
    expect(valueOf(before, 'pqr_webhook_oldest_pending_delivery_age_seconds')).toBe(0);

    expect((await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' })).status).toBe(200);
    clock.advance(90_000); // the dispatcher is off in tests: the delivery waits
    const waiting = await scrapeApiPort();
    expect(valueOf(waiting, 'pqr_webhook_deliveries_pending')).toBe(1);
    expect(valueOf(waiting, 'pqr_webhook_oldest_pending_delivery_age_seconds')).toBe(90);

    expect(await deliverDueWebhooks(server.running.runtime.services)).toBe(1);
    const delivered = await scrapeApiPort();
    expect(valueOf(delivered, 'pqr_webhook_deliveries_pending')).toBe(0);
    expect(valueOf(delivered, 'pqr_webhook_oldest_pending_delivery_age_seconds')).toBe(0);
    expect(
      valueOf(delivered, 'pqr_webhook_delivery_attempts_total', { outcome: 'delivered' }) -
        valueOf(waiting, 'pqr_webhook_delivery_attempts_total', { outcome: 'delivered' }),
    ).toBe(1);
    expect(receiver.at('/metrics-hook')).toHaveLength(1);
  });

  it('carries the bank series that the bank connection reports through the metrics port, and the pool in use', async () => {
    const before = await scrapeApiPort();
    expect(valueOf(before, 'pqr_bank_confirmations_total', { outcome: 'applied' })).toBe(0); // present from the start
    const { metrics } = server.running.runtime.services;
    metrics.bankConfirmation('applied');
    metrics.bankConfirmation('unmatched');
    metrics.unmatchedBankTransaction('amount_mismatch', 15_000);
    const after = await scrapeApiPort();
    expect(valueOf(after, 'pqr_bank_confirmations_total', { outcome: 'applied' })).toBe(1);
    expect(valueOf(after, 'pqr_bank_confirmations_total', { outcome: 'unmatched' })).toBe(1);
    expect(valueOf(after, 'pqr_bank_unmatched_transactions_total', { reason: 'amount_mismatch' })).toBe(1);
    expect(valueOf(after, 'pqr_bank_unmatched_amount_satang_total', { reason: 'amount_mismatch' })).toBe(15_000);
    expect(valueOf(after, 'pqr_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(1);
    expect(after.some((f) => f.name === 'process_cpu_user_seconds_total')).toBe(true);
  });
});

describe('where /metrics is served', () => {
  it('nowhere by default', async () => {
    const plain = await startTestServer();
    try {
      expectEnvelope(await apiClient(plain.url).get('/metrics'), 404, 'route_not_found');
      expect(plain.running.metricsUrl).toBeNull();
    } finally {
      await plain.stop();
    }
  });

  it('on a port of its own with METRICS_PORT, and then not on the API port', async () => {
    const separate = await startTestServer({ env: { METRICS_PORT: '0' } });
    try {
      const api = apiClient(separate.url, await separate.merchant());
      expect((await api.get('/Thai/v1/transactions')).status).toBe(200);
      expect(separate.running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const families = await scrape(separate.running.metricsUrl!);
      expect(valueOf(families, 'pqr_http_requests_total', { method: 'GET', route: '/Thai/v1/transactions', status: '200' })).toBe(1);
      expectEnvelope(await apiClient(separate.url).get('/metrics'), 404, 'route_not_found');
      const other = await fetch(separate.running.metricsUrl!.replace('/metrics', '/other'));
      expect(other.status).toBe(404);
      expect(other.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await fetch(separate.running.metricsUrl!)).headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await separate.stop();
    }
  });
});
