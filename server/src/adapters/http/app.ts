import type { RequestListener } from 'node:http';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../../app/services.js';
import { DomainError } from '../../domain/errors.js';
import type { KeyUsage } from '../../ports/api-keys.js';
import { accessLog } from './access-log.js';
import { requireApiKey } from './auth.js';
import { contractMethods } from './contract-methods.js';
import { requirePermission } from './operation-permissions.js';
import { invalidJson, jsonBody } from './json-body.js';
import { answerError, sendError, serviceUnavailable } from './errors.js';
import { failedAuthenticationLimit, rateLimitPerAddress, rateLimitPerMerchant } from './rate-limit.js';
import { everyResponse, merchantApiResponse } from './response-headers.js';
import { metricsEndpoint, observeRequests, type HttpMetrics } from './request-metrics.js';
import { requestId } from './request-context.js';
import { balanceRoutes } from './routes/balance-routes.js';
import { reportRoutes } from './routes/report-routes.js';
import { BANK_CONFIRMATIONS_PATH, bankConfirmationRoutes } from './routes/bank-routes.js';
import { eventRoutes } from './routes/event-routes.js';
import { docsRoutes } from './routes/docs-routes.js';
import { withHotRoutes } from './hot-routes.js';
import type { SendWire } from './idempotency.js';
import { createQrCodeRoute, paymentRoutes, retrievePaymentBody } from './routes/payment-routes.js';
import { QR_IMAGE_BASE, qrImageRoute, type QrImageRenderer } from './routes/qr-image-route.js';
import { webhookManagementRoutes } from './routes/webhook-management-routes.js';
import { webhookRoutes, type WebhookRouteDeps } from './routes/webhook-routes.js';
import { contractValidators, fromValidatorError } from './validation.js';

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
  /** Requests are counted and timed when metrics are kept. */
  metrics?: HttpMetrics | null;
  /** False: every request goes through Express (HOT_ROUTES=off); see ./hot-routes.ts. */
  hotRoutes?: boolean;
  /** Pages outside the API (the checkout page, the dashboard) and where each is served, routed before it. */
  pages?: { basePath: string; router: RequestHandler }[];
}

function fromBodyParserError(error: unknown): DomainError | null {
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return invalidJson();
  if (type === 'entity.too.large') return new DomainError('payload_too_large', 'The request body is larger than 1 MiB.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new DomainError('invalid_request', 'Send the body as UTF-8 JSON.');
  // Anything else the request itself got wrong (a body not in its Content-Encoding, a malformed URL escape).
  const status = (error as { status?: number } | null)?.status;
  if (status !== undefined && status >= 400 && status < 500) {
    return new DomainError('invalid_request', 'The request could not be read: check its Content-Encoding, charset and URL escapes.');
  }
  return null;
}

/**
 * The HTTP service: the hot routes (./hot-routes.ts) in front of the Express app that serves everything. Steps both
 * lanes take are defined once and used by each: the headers of every answer (./response-headers.ts), the API key check,
 * the limits and the key's permissions before any body is read (./auth.ts, ./rate-limit.ts, ./operation-permissions.ts), the body's deadline (./body-deadline.ts), the
 * access log (./access-log.ts), the metrics (./request-metrics.ts) and the error envelope (./errors.ts).
 */
export function createApp(deps: AppDeps): RequestListener {
  const { services: s, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple'); // repeated or nested query parameters are refused, not silently merged

  app.use(requestId(() => s.ids.next('request')));
  app.use(accessLog(logger));
  if (deps.metrics) {
    app.use(observeRequests(deps.metrics));
    if (deps.metrics.serveOnApiPort) app.get('/metrics', metricsEndpoint(deps.metrics));
  }

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
  // The API under each base path: no-store, authenticated and rate limited per merchant before the body is read, then
  // validated against the contract's paths served there, routed.
  const authenticated = requireApiKey(s, deps.keyUsage, failedAuthenticationLimit(s.clock, deps.authFailureLimitPerSecond));
  const perMerchant = rateLimitPerMerchant(s.clock, deps.rateLimitPerSecond);
  const permitted = requirePermission();
  const apiHeaders: RequestHandler = (_req, res, next) => {
    merchantApiResponse(res);
    next();
  };
  const routes = [
    paymentRoutes(s, deps.publicBaseUrl),
    webhookRoutes(s, deps.webhooks),
    webhookManagementRoutes(s),
    eventRoutes(s),
    balanceRoutes(s),
    reportRoutes(s),
  ];
  for (const { basePath, validator } of contractValidators({ validateResponses: deps.validateResponses ?? false })) {
    app.use(basePath, Router().use(apiHeaders, authenticated.middleware, perMerchant.middleware, permitted, body, validator, ...routes));
  }
  app.use(() => {
    throw new DomainError('route_not_found', 'No such route. See the API reference for the paths under /Thai/v1.');
  });

  const errorEnvelope: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    answerError(res, error, logger, (e) => fromValidatorError(e) ?? fromBodyParserError(e));
  };
  app.use(errorEnvelope);
  const hot = {
    services: s,
    logger,
    apiKeys: authenticated,
    perMerchant,
    keyUsage: deps.keyUsage,
    metrics: deps.metrics,
    requestBodyTimeoutMs: deps.requestBodyTimeoutMs,
  };
  const handlers = { createQrCode: (send: SendWire) => createQrCodeRoute(s, deps.publicBaseUrl, send), retrievePayment: retrievePaymentBody(s) };
  const lanes = deps.hotRoutes === false ? app : withHotRoutes({ ...hot, ...handlers, validateResponses: deps.validateResponses ?? false }, app);
  return (req, res) => {
    everyResponse(res);
    lanes(req, res);
  };
}
