import type { Registry } from 'prom-client';
import type { OperationalMetrics } from '../../ports/metrics.js';

/** The PDF printer's load (the same shape as adapters/documents' PrintLoad). */
export interface DocumentLoad {
  printing: number;
  waiting: number;
  mostAtOnce: number;
  printed: number;
  refused: number;
}

/** What the database can say at scrape time. */
export interface ScrapeSources {
  /** Connections of the pool: in use, idle, and requests waiting for one; null without a pool. */
  pool(): { used: number; free: number; waiting: number; max: number } | null;
  /** Pending webhook deliveries and when the oldest of them was created. */
  deliveryBacklog(): Promise<{ pending: number; oldestCreatedAt: Date | null }>;
  /** The PDF printer: documents printing, waiting, the most printing at once, printed and refused since the start. */
  documents(): DocumentLoad;
  now(): Date;
}

export interface PrometheusMetrics extends OperationalMetrics {
  registry: Registry;
  /** One answered HTTP request; `route` is the route's pattern, never the raw path (ids would explode the series). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A request to a hot route (POST /qr-codes, GET /payments/{id}): answered by the lane, or passed on to Express. */
  countHotRoute(outcome: 'taken' | 'passed_on'): void;
}

/**
 * Every series of the service in a registry of its own (several servers may share a process: tests). prom-client is
 * loaded only here, when METRICS or METRICS_PORT asks for metrics.
 */
export async function prometheusMetrics(sources: ScrapeSources): Promise<PrometheusMetrics> {
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'pqr_http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'pqr_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const hotRoutes = new Counter({
    name: 'pqr_http_hot_route_requests_total',
    help: 'Requests to the two hot operations: answered by the hot routes (taken), or passed on to the general routes.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const paymentsCreated = new Counter({
    name: 'pqr_payments_created_total',
    help: 'Payments created, by method.',
    labelNames: ['method'],
    registers: [registry],
  });
  const paymentsCompleted = new Counter({
    name: 'pqr_payments_completed_total',
    help: 'Payments that reached a final state, by status.',
    labelNames: ['status'],
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'pqr_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, pending (will be retried) or failed (gave up).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const bankConfirmations = new Counter({
    name: 'pqr_bank_confirmations_total',
    help: 'Bank transactions confirmed by the bank, by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const unmatched = new Counter({
    name: 'pqr_bank_unmatched_transactions_total',
    help: 'Bank transactions that fit no payment, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const unmatchedAmount = new Counter({
    name: 'pqr_bank_unmatched_amount_satang_total',
    help: 'Money (satang) received that fits no payment, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const qrImages = new Counter({
    name: 'pqr_qr_images_total',
    help: 'QR code images served, by source: drawn for the request, or kept from an earlier drawing (cache).',
    labelNames: ['source'],
    registers: [registry],
  });
  new Gauge({
    name: 'pqr_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for a successful attempt.',
    registers: [registry],
    async collect() {
      this.set((await sources.deliveryBacklog()).pending);
    },
  });
  new Gauge({
    name: 'pqr_webhook_oldest_pending_delivery_age_seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none).',
    registers: [registry],
    async collect() {
      const { oldestCreatedAt } = await sources.deliveryBacklog();
      this.set(oldestCreatedAt ? Math.max(0, (sources.now().getTime() - oldestCreatedAt.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'pqr_db_pool_connections',
    help: 'Database pool connections by state: used, free, waiting (requests queued for a connection), max.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = sources.pool();
      if (!pool) return;
      for (const state of ['used', 'free', 'waiting', 'max'] as const) this.set({ state }, pool[state]);
    },
  });
  new Gauge({
    name: 'pqr_pdf_pages',
    help: 'PDF documents by state: printing (a browser page each, at most 2), waiting for a place, most_at_once since the start.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const load = sources.documents();
      this.set({ state: 'printing' }, load.printing);
      this.set({ state: 'waiting' }, load.waiting);
      this.set({ state: 'most_at_once' }, load.mostAtOnce);
    },
  });
  new Counter({
    name: 'pqr_pdf_renders_total',
    help: 'PDF documents printed, and refused with 503 when the printer and its queue were full.',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const load = sources.documents();
      this.reset();
      this.inc({ outcome: 'printed' }, load.printed);
      this.inc({ outcome: 'refused' }, load.refused);
    },
  });
  // Series exist from the start at 0, so rate() and increase() see the first event.
  for (const method of ['qr', 'card']) paymentsCreated.inc({ method }, 0);
  for (const status of ['succeeded', 'failed', 'expired']) paymentsCompleted.inc({ status }, 0);
  for (const outcome of ['delivered', 'pending', 'failed']) webhookAttempts.inc({ outcome }, 0);
  for (const source of ['drawn', 'cache']) qrImages.inc({ source }, 0);
  for (const outcome of ['applied', 'duplicate', 'unmatched', 'not_listed', 'bank_unreachable', 'rejected']) bankConfirmations.inc({ outcome }, 0);

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status });
      latency.observe({ method, route, status }, seconds);
    },
    countHotRoute: (outcome) => hotRoutes.inc({ outcome }),
    paymentCreated: (method) => paymentsCreated.inc({ method }),
    paymentCompleted: (status) => paymentsCompleted.inc({ status }),
    webhookAttempt: (outcome) => webhookAttempts.inc({ outcome }),
    qrImage: (source) => qrImages.inc({ source }),
    bankConfirmation: (outcome) => bankConfirmations.inc({ outcome }),
    unmatchedBankTransaction(reason, amountSatang) {
      unmatched.inc({ reason });
      unmatchedAmount.inc({ reason }, amountSatang);
    },
  };
}
