import type { RequestListener } from 'node:http';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import type { KeyUsage } from '../../ports/api-keys.js';
import { DocumentsBusy } from '../../ports/documents.js';
import { cutUnreadBody } from '../pages/body-deadline.js';
import type { TrustedProxies } from '../pages/client-address.js';
import { apiPipeline } from './api-pipeline.js';
import { contractMethods } from './contract-methods.js';
import { jsonBody } from './json-body.js';
import { sendError, serviceUnavailable } from './errors.js';
import { rateLimitPerAddress } from './rate-limit.js';
import { everyResponse } from './response-headers.js';
import { metricsEndpoint, type HttpMetrics } from './request-metrics.js';
import { balanceRoutes } from './routes/balance-routes.js';
import { slipRoutes } from './routes/slip-routes.js';
import { reportRoutes } from './routes/report-routes.js';
import { BANK_CONFIRMATIONS_PATH, bankConfirmationRoutes } from './routes/bank-routes.js';
import { eventRoutes } from './routes/event-routes.js';
import { docsRoutes } from './routes/docs-routes.js';
import { withHotRoutes } from './hot-routes.js';
import type { SendWire } from './idempotency.js';
import { createQrCodeRoute, paymentRoutes, retrievePaymentBody } from './routes/payment-routes.js';
import { QR_IMAGE_BASE, qrImageRoute, type QrImageRenderer } from './routes/qr-image-route.js';
import { tillRoutes } from './routes/till-routes.js';
import { webhookManagementRoutes } from './routes/webhook-management-routes.js';
import { webhookRoutes, type WebhookRouteDeps } from './routes/webhook-routes.js';
import { contractValidators } from './validation.js';

export interface AppDeps {
  services: Services;
  publicBaseUrl: string;
  logger: Logger;
  renderQrImage: QrImageRenderer;
  webhooks: WebhookRouteDeps;
  /** Validate every response against the contract too (tests); a mismatch becomes a 500. */
  validateResponses?: boolean;
  /** The secret path segment of the bank's confirmation callback (BANK=scb); null: no bank connection. */
  bankCallbackToken?: string | null;
  /** Resolves when the database takes writes, with the host that does (null: the embedded database); rejects otherwise. */
  readiness: () => Promise<{ primary: string | null }>;
  keyUsage: KeyUsage;
  /** Per merchant on the API, per client address on public pages; 0: no limit. */
  rateLimitPerSecond: number;
  /** Failed authentications on the API per client address; 0: no limit. */
  authFailureLimitPerSecond: number;
  /** How long a request body may take to arrive once reading starts (then 408, connection closed). */
  requestBodyTimeoutMs: number;
  /** The proxies whose X-Forwarded-For names the client (TRUST_PROXY); none: the TCP peer is the client. */
  trustedProxies: TrustedProxies;
  /** Requests are counted and timed when metrics are kept. */
  metrics?: HttpMetrics | null;
  /** False: every request goes through Express (HOT_ROUTES=off); see ./hot-routes.ts. */
  hotRoutes?: boolean;
  /** Pages outside the API (the checkout page, the dashboard) and where each is served, routed before it. */
  pages?: { basePath: string; router: RequestHandler }[];
}

/**
 * The HTTP service: the hot routes (./hot-routes.ts) in front of the Express app that serves everything. The steps an
 * API request takes, and the error envelope, are one list both lanes run (./api-pipeline.ts); the header every answer
 * carries is set here, before either lane.
 */
export function createApp(deps: AppDeps): RequestListener {
  const { services: s } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple'); // repeated or nested query parameters are refused, not silently merged

  const pipeline = apiPipeline(deps);
  app.use(...pipeline.everyRequest);
  if (deps.metrics?.serveOnApiPort) app.get('/metrics', metricsEndpoint(deps.metrics));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = await deps.readiness().catch(() => null);
    if (!ready) return sendError(res, serviceUnavailable());
    res.json(ready.primary === null ? { status: 'ready' } : { status: 'ready', primary: ready.primary });
  });
  app.use(contractMethods());

  // Pages (the QR image, the checkout page, the dashboard) share one bucket per client address; their static assets are free.
  const perAddress = rateLimitPerAddress(s.clock, deps.rateLimitPerSecond);
  for (const pages of deps.pages ?? [])
    app.use(pages.basePath, (req, res, next) => (req.path.startsWith('/assets/') ? next() : perAddress(req, res, next)), pages.router);
  app.use(docsRoutes());
  const body = jsonBody(deps.requestBodyTimeoutMs);
  app.get(`${QR_IMAGE_BASE}/:qr_code_id/image`, perAddress);
  app.use(QR_IMAGE_BASE, qrImageRoute(s, deps.renderQrImage));
  app.use(BANK_CONFIRMATIONS_PATH, bankConfirmationRoutes(s, deps.bankCallbackToken ?? null, body));
  // The API under each base path: its steps (./api-pipeline.ts), then validated against the contract's paths served there, routed.
  const routes = [
    paymentRoutes(s, deps.publicBaseUrl),
    webhookRoutes(s, deps.webhooks),
    webhookManagementRoutes(s),
    eventRoutes(s),
    balanceRoutes(s),
    reportRoutes(s),
    tillRoutes(s, deps.publicBaseUrl),
    slipRoutes(s),
  ];
  for (const { basePath, validator } of contractValidators({ validateResponses: deps.validateResponses ?? false })) {
    app.use(basePath, Router().use(...pipeline.api, validator, ...routes));
  }
  app.use(() => {
    throw new DomainError('route_not_found', 'No such route. See the API reference for the paths under /Thai/v1.');
  });

  const errorEnvelope: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof DocumentsBusy) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    pipeline.answerError(res, error);
  };
  app.use(errorEnvelope);
  const hot = {
    services: s,
    pipeline,
    metrics: deps.metrics,
    requestBodyTimeoutMs: deps.requestBodyTimeoutMs,
    createQrCode: (send: SendWire) => createQrCodeRoute(s, deps.publicBaseUrl, send),
    retrievePayment: retrievePaymentBody(s),
    validateResponses: deps.validateResponses ?? false,
  };
  const lanes = deps.hotRoutes === false ? app : withHotRoutes(hot, app);
  return (req, res) => {
    everyResponse(res);
    cutUnreadBody(req, res, deps.requestBodyTimeoutMs);
    lanes(req, res);
  };
}
