import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import { reconcileBankPayments } from './app/bank-payments.js';
import { purgeExpiredWebhookData } from './app/events.js';
import { batchedKeyUsage } from './app/api-keys.js';
import { expireOverduePayments } from './app/expire-overdue-payments.js';
import { purgeEndedSessions } from './app/dashboard-sessions.js';
import { inviteAsOperator } from './app/invitations.js';
import { createMerchant } from './app/merchants.js';
import type { Services } from './app/services.js';
import { CHECKOUT_BASE, checkoutRoutes } from './adapters/checkout/checkout-routes.js';
import { checkoutStatusHub, type CheckoutStatusHub } from './adapters/checkout/status-hub.js';
import { tillDisplayHub, type TillDisplayHub } from './adapters/tills/display-hub.js';
import { DISPLAY_BASE, tillDisplayRoutes } from './adapters/tills/display-routes.js';
import { DASHBOARD_BASE, dashboardRoutes } from './adapters/dashboard/dashboard-routes.js';
import { merchantPaymentFeed, type MerchantPaymentFeed } from './adapters/dashboard/payment-feed.js';
import { invitationUrl } from './adapters/dashboard/urls.js';
import { createApp } from './adapters/http/app.js';
import { compileContractValidators } from './adapters/http/validation.js';
import { NOSNIFF } from './adapters/http/response-headers.js';
import { countingDeliveryQueue, countingUnitOfWork } from './adapters/metrics/counting.js';
import { startMetricsServer } from './adapters/metrics/metrics-server.js';
import { prometheusMetrics, type PrometheusMetrics } from './adapters/metrics/prometheus.js';
import { countFolder, FOLD_INTERVAL_MS } from './adapters/postgres/count-folding.js';
import { DatabaseUnreachableError, openDatabase, type Database } from './adapters/postgres/database.js';
import { lockDataDir } from './adapters/postgres/embedded-lock.js';
import { poolUse } from './adapters/postgres/pool-use.js';
import { deliveryBacklog } from './adapters/postgres/repositories/delivery-backlog.js';
import { embeddedPaymentStatusChanges, postgresPaymentStatusChanges, sharedPaymentStatusChanges } from './adapters/postgres/payment-status-listener.js';
import type { PaymentStatusChanges } from './ports/payment-status.js';
import { deliveryQueue } from './adapters/postgres/repositories/delivery-queue.js';
import { createUnitOfWork } from './adapters/postgres/unit-of-work.js';
import { qrImagePool, type QrImages } from './adapters/promptpay/qr-image-pool.js';
import { scbBankConnection } from './adapters/scb/scb-connection.js';
import { sandboxBank } from './adapters/sandbox/sandbox-bank.js';
import { sandboxSlipBank } from './adapters/sandbox/sandbox-slip-bank.js';
import { workerImageDecoder } from './adapters/slips/image-decoder.js';
import { slipCodec } from './adapters/slips/slip-codec.js';
import { sandboxCardProcessor } from './adapters/sandbox/sandbox-card-processor.js';
import { sandboxPayoutRail } from './adapters/sandbox/sandbox-payout-rail.js';
import { bulkTransferCsv } from './adapters/payouts/bulk-transfer-csv.js';
import { settleMaturedCredits } from './app/ledger.js';
import { taxInvoicingJob } from './app/tax-invoices.js';
import { boundedPdfPrinter } from './adapters/documents/bounded-printer.js';
import { chromiumPdfPrinter } from './adapters/documents/pdf-printer.js';
import { statementRenderer } from './adapters/documents/statement-pdf.js';
import { taxInvoiceRenderer } from './adapters/documents/tax-invoice-pdf.js';
import { advanceSandboxPayouts } from './app/withdrawals.js';
import { sha256ApiKeys } from './adapters/system/api-keys.js';
import { isClusterWorker, isFirstServerProcess, superviseServers } from './adapters/system/cluster.js';
import { systemClock } from './adapters/system/clock.js';
import { randomIds } from './adapters/system/random-ids.js';
import { scryptPasswords } from './adapters/system/scrypt-passwords.js';
import { maskedUrl } from './adapters/system/masked-url.js';
import { randomSecretTokens } from './adapters/system/secret-tokens.js';
import { otpauthSecondFactor } from './adapters/system/totp.js';
import { repeat } from './adapters/system/repeat.js';
import { startWebhookDispatcher } from './adapters/webhooks/dispatcher.js';
import { embeddedDeliveryWakeups } from './adapters/webhooks/embedded-wakeups.js';
import { httpWebhookSender } from './adapters/webhooks/http-sender.js';
import { postgresDeliveryWakeups } from './adapters/postgres/delivery-wakeups.js';
import { standardWebhookSigner } from './adapters/webhooks/standard-signer.js';
import { webhookUrlGuard } from './adapters/webhooks/url-guard.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { KeyUsage } from './ports/api-keys.js';
import type { CustomerBank } from './ports/bank.js';
import type { Clock } from './ports/clock.js';
import { silentMetrics } from './ports/metrics.js';

/** The composition root: the one module that names concrete adapters and wires them together. */

export interface Overrides {
  clock?: Clock;
  /** Tests stand in for the customer's bank, a process boundary. */
  bank?: CustomerBank;
  logger?: Logger;
  validateResponses?: boolean;
  /** False: no payout rail, bank reconciliation or count folding in this server (a test that counts one request's statements). */
  backgroundJobs?: boolean;
  /** The embedded database starts from this dump of a data directory (PGlite's `dumpDataDir`), not an empty one: tests start from one migrated snapshot. */
  embeddedSnapshot?: Blob;
}

export interface Runtime {
  config: Config;
  db: Database;
  services: Services;
  logger: Logger;
  /** The Prometheus series, kept only when METRICS or METRICS_PORT asks for them. */
  metrics: PrometheusMetrics | null;
  keyUsage: KeyUsage & { flush(): Promise<void> };
  /** The public QR image's drawings: on worker threads, each kept once drawn. */
  qrImages: QrImages;
  close(): Promise<void>;
}

export const createLogger = (config: Config): Logger =>
  pino({ level: config.logLevel, redact: { paths: ['req.headers.authorization', '*.apiKey', '*.secret', '*.api_key'], censor: '[redacted]' } });

/** DATA_DIR=memory:// keeps the embedded database in memory (tests, throwaway demos). */
const IN_MEMORY = 'memory://';

/** Opens the database (locking the embedded one) and builds the services every entry point shares. */
export async function openRuntime(config: Config, overrides: Overrides = {}): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(config);
  const inMemory = config.dataDir === IN_MEMORY;
  const unlock = config.databaseUrl || inMemory ? null : await lockDataDir(config.dataDir);
  try {
    const db = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'embedded', dataDir: inMemory ? null : config.dataDir, snapshot: overrides.embeddedSnapshot, sharedBuffers: config.embeddedSharedBuffers },
    ).catch((error: unknown) => {
      if (!(error instanceof DatabaseUnreachableError)) throw error;
      throw new ConfigError(`DATABASE_URL: the database at ${maskedUrl(config.databaseUrl ?? '')} cannot be reached (${error.message}).`);
    });
    const clock = overrides.clock ?? systemClock;
    const pdfPrinter = boundedPdfPrinter(chromiumPdfPrinter());
    const metrics =
      config.metrics.onApiPort || config.metrics.port !== null
        ? await prometheusMetrics({
            pool: () => poolUse(db.knex),
            deliveryBacklog: () => deliveryBacklog(db.knex),
            documents: () => pdfPrinter.load(),
            now: () => clock.now(),
          })
        : null;
    const uow = createUnitOfWork(db.knex);
    const queue = deliveryQueue(db.knex);
    const services: Services = {
      uow: metrics ? countingUnitOfWork(uow, metrics) : uow,
      clock,
      ids: randomIds,
      apiKeys: sha256ApiKeys,
      bank: overrides.bank ?? sandboxBank,
      bankConnection: config.bank.kind === 'scb' ? scbBankConnection(config.bank) : null,
      sandboxSlips: sandboxSlipBank(uow),
      slips: slipCodec(workerImageDecoder()),
      cardProcessors: { test: sandboxCardProcessor, live: null },
      settlementDelayMs: config.settlementDelayMs,
      payoutRails: { sandbox: sandboxPayoutRail, bulkTransfer: bulkTransferCsv },
      returnUrls: { allowHttp: config.webhookAllowPrivateUrls },
      webhooks: {
        urlGuard: webhookUrlGuard({ allowPrivate: config.webhookAllowPrivateUrls }),
        signer: standardWebhookSigner(),
        sender: httpWebhookSender(),
        queue: metrics ? countingDeliveryQueue(queue, metrics) : queue,
        retryScheduleMs: config.webhookRetryScheduleMs,
        timeoutMs: config.webhookTimeoutMs,
        leaseMarginMs: config.webhookLeaseMarginMs,
      },
      accounts: { passwords: scryptPasswords(config.passwordHashCost), secondFactor: otpauthSecondFactor, tokens: randomSecretTokens },
      operator: config.operator,
      taxInvoicePdf: taxInvoiceRenderer(pdfPrinter),
      statementPdf: statementRenderer(pdfPrinter),
      metrics: metrics ?? silentMetrics,
    };
    const qrImages = qrImagePool({ onImage: services.metrics.qrImage });
    const keyUsage = batchedKeyUsage(services, config.apiKeyUseFlushMs, (error) => logger.warn({ err: error }, 'recording API key use failed; retrying'));
    const close = async () => {
      await keyUsage.stop();
      await pdfPrinter.close();
      await qrImages.close();
      await db.close();
      await unlock?.();
    };
    return { config, db, services, logger, metrics, keyUsage, qrImages, close };
  } catch (error) {
    await unlock?.();
    throw error;
  }
}

const httpMetrics = (metrics: PrometheusMetrics, serveOnApiPort: boolean) => ({
  observeRequest: metrics.observeRequest,
  countHotRoute: metrics.countHotRoute,
  render: async () => ({ contentType: metrics.registry.contentType, text: await metrics.registry.metrics() }),
  serveOnApiPort,
});

/** Payment status changes as the database notifies them: ONE listener per server, shared by every page that follows them. */
export function paymentStatusChangesOf(runtime: Runtime): PaymentStatusChanges {
  const { databaseUrl } = runtime.config;
  const onError = (error: unknown) => runtime.logger.warn({ err: error }, 'payment status updates interrupted; recovering');
  return sharedPaymentStatusChanges(databaseUrl ? postgresPaymentStatusChanges(databaseUrl, onError) : embeddedPaymentStatusChanges(runtime.db.knex));
}

export interface LivePages {
  checkoutHub: CheckoutStatusHub;
  paymentFeed: MerchantPaymentFeed;
  tillDisplays: TillDisplayHub;
}

/** Open checkout pages follow their payments; open dashboard pages, their merchant's payments; customer displays, their till's. */
export function livePagesOf(runtime: Runtime, changes = paymentStatusChangesOf(runtime)): LivePages {
  const onError = (error: unknown) => runtime.logger.warn({ err: error }, 'live page updates interrupted; recovering');
  return {
    checkoutHub: checkoutStatusHub(runtime.services, changes, onError),
    paymentFeed: merchantPaymentFeed(runtime.services, changes, onError),
    tillDisplays: tillDisplayHub(runtime.services, changes, onError),
  };
}

export function buildApp(runtime: Runtime, publicBaseUrl: string, overrides: Overrides = {}, live = livePagesOf(runtime)): RequestListener {
  return createApp({
    services: runtime.services,
    publicBaseUrl,
    logger: runtime.logger,
    renderQrImage: runtime.qrImages.render,
    webhooks: {},
    pages: [
      {
        basePath: CHECKOUT_BASE,
        router: checkoutRoutes(runtime.services, live.checkoutHub, {
          streamLifetimeMs: runtime.config.checkoutStreamLifetimeMs,
          requestBodyTimeoutMs: runtime.config.requestBodyTimeoutMs,
          secureCookies: publicBaseUrl.startsWith('https:'),
        }),
      },
      { basePath: DISPLAY_BASE, router: tillDisplayRoutes(runtime.services, live.tillDisplays, { streamLifetimeMs: runtime.config.checkoutStreamLifetimeMs }) },
      {
        basePath: DASHBOARD_BASE,
        router: dashboardRoutes({
          services: runtime.services,
          publicBaseUrl: runtime.config.publicBaseUrl,
          logger: runtime.logger,
          paymentFeed: live.paymentFeed,
          streamLifetimeMs: runtime.config.checkoutStreamLifetimeMs,
          requestBodyTimeoutMs: runtime.config.requestBodyTimeoutMs,
        }),
      },
    ],
    validateResponses: overrides.validateResponses ?? false,
    hotRoutes: runtime.config.hotRoutes,
    bankCallbackToken: runtime.config.bank.kind === 'scb' ? runtime.config.bank.callbackToken : null,
    readiness: async () => ({ primary: await runtime.db.writableHost() }),
    keyUsage: runtime.keyUsage,
    rateLimitPerSecond: runtime.config.rateLimitPerSecond,
    authFailureLimitPerSecond: runtime.config.authFailureLimitPerSecond,
    trustedProxies: runtime.config.trustProxy,
    requestBodyTimeoutMs: runtime.config.requestBodyTimeoutMs,
    metrics: runtime.metrics && httpMetrics(runtime.metrics, runtime.config.metrics.onApiPort),
  });
}

/** The expiry sweeper and the webhook dispatcher: run in the server unless WEBHOOK_DISPATCHER=off. */
export function startBackgroundWork(runtime: Runtime): () => Promise<void> {
  const { databaseUrl } = runtime.config;
  const dispatcher = startWebhookDispatcher({
    services: runtime.services,
    // Woken by NOTIFY as deliveries commit; polling is only the fallback.
    wakeups: databaseUrl
      ? postgresDeliveryWakeups(databaseUrl, (error) => runtime.logger.warn({ err: error }, 'webhook wake-ups lost; reconnecting'))
      : embeddedDeliveryWakeups(runtime.db.knex),
    pollIntervalMs: databaseUrl ? 5_000 : 1_000,
    onError: (error) => runtime.logger.warn({ err: error }, 'webhook dispatch failed; retrying'),
  });
  const stopSweeps = repeat(
    () =>
      expireOverduePayments(runtime.services)
        .then(() => purgeExpiredWebhookData(runtime.services))
        .then(() => purgeEndedSessions(runtime.services)),
    runtime.config.expirySweepIntervalMs,
    (error) => runtime.logger.warn({ err: error }, 'expiry sweep failed; retrying'),
  );
  return async () => {
    await Promise.all([stopSweeps(), dispatcher.stop()]);
  };
}

/**
 * The sandbox payout rail's worker (every SANDBOX_PAYOUT_INTERVAL_MS) and the settling of matured credits: in every
 * server and worker, whatever WEBHOOK_DISPATCHER says (SKIP LOCKED and the balance row lock share the work).
 */
export function startPayoutWork(runtime: Runtime): () => Promise<void> {
  const { services } = runtime;
  // One after the other: a run never holds more than one pooled connection.
  const payOut = () => advanceSandboxPayouts(services).then(() => (services.settlementDelayMs > 0 ? settleMaturedCredits(services) : 0));
  return repeat(payOut, runtime.config.sandboxPayoutIntervalMs, (error) => runtime.logger.warn({ err: error }, 'sandbox payouts failed; retrying'));
}

/** Count changes folded into the counters: in every server and worker, whatever WEBHOOK_DISPATCHER says. */
export const startCountFolding = (runtime: Runtime): (() => Promise<void>) =>
  repeat(countFolder(runtime.db.knex), FOLD_INTERVAL_MS, (error) => runtime.logger.warn({ err: error }, 'folding count changes failed; retrying'));

/** With BANK=scb, every server and worker reconciles live payments with the bank, whatever WEBHOOK_DISPATCHER says. */
export function startBankReconciliation(runtime: Runtime): () => Promise<void> {
  const { bank } = runtime.config;
  if (bank.kind !== 'scb') return async () => undefined;
  const reconcile = () => reconcileBankPayments(runtime.services, bank.reconcileIntervalMs);
  return repeat(reconcile, bank.reconcileIntervalMs, (error) => runtime.logger.warn({ err: error }, 'bank reconciliation failed; retrying'), {
    startNow: false,
  });
}

/** How often the servers and workers look for a month that ended with its tax invoices not issued yet. */
const TAX_INVOICE_INTERVAL_MS = 10 * 60_000;

/**
 * Tax invoices for the month that ended, in every server and worker once the operator's details are set: the
 * counter row each invoice locks keeps several instances from issuing one twice or leaving a gap.
 */
export function startTaxInvoicing(runtime: Runtime): () => Promise<void> {
  if (!runtime.config.operator) return async () => undefined;
  return repeat(taxInvoicingJob(runtime.services), TAX_INVOICE_INTERVAL_MS, (error) =>
    runtime.logger.warn({ err: error }, 'issuing tax invoices failed; retrying'),
  );
}

/** Requests Node cannot even parse (headers over 64 KiB, a broken request line) still get the error envelope. */
function answerUnreadableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const requestId = randomIds.next('request');
  const body = JSON.stringify({
    error: {
      code: 'invalid_request',
      message: tooLarge ? 'The request line and headers exceed 64 KiB.' : 'The HTTP request could not be parsed.',
      type: 'validation_error',
      request_id: requestId,
    },
  });
  const status = tooLarge ? 431 : 400;
  // Read on while the answer goes out: closing with unread input makes the kernel reset the connection, and the
  // client would see the reset instead of the answer.
  socket.on('error', () => socket.destroy());
  socket.resume();
  setTimeout(() => socket.destroy(), 2_000).unref();
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRequest-Id: ${requestId}\r\n${NOSNIFF.join(': ')}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface RunningServer {
  url: string;
  /** Where METRICS_PORT serves /metrics; null when it is not set. */
  metricsUrl: string | null;
  runtime: Runtime;
  checkoutHub: CheckoutStatusHub;
  stop(): Promise<void>;
}

export async function startServer(config: Config, overrides: Overrides = {}): Promise<RunningServer> {
  // Seconds of compiling that hold the event loop: done before any connection is made and timed (./adapters/http/validation.ts).
  await compileContractValidators({ validateResponses: overrides.validateResponses ?? false });
  const runtime = await openRuntime(config, overrides);
  const stopBackground = config.webhookDispatcher ? startBackgroundWork(runtime) : async () => undefined;
  const jobs = overrides.backgroundJobs ?? true;
  const stopPayouts = jobs ? startPayoutWork(runtime) : async () => undefined;
  const stopReconciliation = jobs ? startBankReconciliation(runtime) : async () => undefined;
  const stopFolding = jobs ? startCountFolding(runtime) : async () => undefined;
  const stopInvoicing = jobs ? startTaxInvoicing(runtime) : async () => undefined;
  // Long query strings and many headers are answered in the envelope like any bad request; only heads over 64 KiB are cut short.
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 });
  server.on('clientError', answerUnreadableRequest);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject).listen(config.port, config.host));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const live = livePagesOf(runtime);
  const { checkoutHub } = live;
  server.on('request', buildApp(runtime, config.publicBaseUrl ?? url, overrides, live));
  const metricsServer = runtime.metrics && config.metrics.port !== null ? await startMetricsServer(runtime.metrics, config.metrics.port, config.host) : null;
  return {
    url,
    metricsUrl: metricsServer?.url ?? null,
    runtime,
    checkoutHub,
    async stop() {
      await metricsServer?.stop();
      await Promise.all([checkoutHub.close(), live.paymentFeed.close(), live.tillDisplays.close()]); // ends the open streams, which would keep the server from closing
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([stopBackground(), stopPayouts(), stopReconciliation(), stopFolding(), stopInvoicing()]);
      await runtime.close();
    },
  };
}

/** Who the first start invites to the sandbox merchant's dashboard (more people: `npm run cli -- users invite`). */
const SANDBOX_OWNER_EMAIL = 'owner@example.com';

/**
 * A first start on an empty database (embedded or PostgreSQL alike) creates a sandbox merchant and its owner's
 * invitation, and shows how to use them. Under WEB_CONCURRENCY only the first server process greets, so one start
 * makes one sandbox merchant.
 */
async function greet(running: RunningServer): Promise<void> {
  const { runtime, url } = running;
  const base = runtime.config.publicBaseUrl ?? url;
  runtime.logger.info(`Payment QR service listening on ${url} (${runtime.db.kind} database)`);
  if (!isFirstServerProcess()) return;
  if ((await runtime.services.uow.repos.merchants.count()) > 0) {
    console.log(
      'Merchants exist already (the sandbox key was printed at first start). For a new key, stop the server and run: npm run cli -- merchants create --name "My shop"',
    );
    if (runtime.config.bank.kind === 'scb') greetLive();
    return;
  }
  const { merchant, apiKey } = await createMerchant(runtime.services, {
    name: 'Sandbox merchant',
    mode: 'test', // no PromptPay id: its QR codes name one no bank can hold
    // A sandbox payout account, so the quick start can withdraw too (the sandbox rail pays it).
    payoutAccount: { bankCode: '014', accountNumber: '1234567890', accountName: 'Sandbox merchant' },
  });
  const { token } = await inviteAsOperator(runtime.services, merchant.id, SANDBOX_OWNER_EMAIL, 'owner');
  console.log(
    [
      '',
      `Sandbox merchant ${merchant.id} created. Its test API key (shown once, stored only as a hash):`,
      `  ${apiKey}`,
      '',
      'Create a QR code for 150.00 THB:',
      `  curl -s -X POST ${base}/Thai/v1/qr-codes -H 'Authorization: Bearer ${apiKey}' -H 'Content-Type: application/json' -H 'Idempotency-Key: order-1001' -d '{"amount": 15000, "currency": "THB", "reference": "ORDER-1001"}'`,
      '',
      `Then open the checkout_url it returns (the customer's page) and pay it: POST ${base}/Thai/v1/test/payments/<payment_id>/succeed`,
      '',
      `The merchant dashboard: open this one-time invitation (valid 72 h) to choose the password and second factor of its owner, ${SANDBOX_OWNER_EMAIL}:`,
      `  ${invitationUrl(base, token)}`,
      '',
    ].join('\n'),
  );
  if (runtime.config.bank.kind === 'scb') greetLive();
}

/** With a bank connection, the way to a live merchant (README, "Going live"): the CLI, with the same settings. */
function greetLive(): void {
  console.log(
    [
      'Bank connection on (BANK=scb). For a live merchant, stop the server and run, with the same settings:',
      '  npm run cli -- merchants create --name "My shop" --live [--bank-code CODE --account-number DIGITS --account-name NAME]',
      '',
    ].join('\n'),
  );
}

/**
 * A start must end listening or saying why it did not: should the work to start ever run out before the server listens
 * (a promise nothing will settle), the process says so and exits 1 rather than ending quietly with 0.
 */
function failIfNeverListening(): () => void {
  const neverListened = () => {
    console.error('error: the server stopped before it was listening (its start-up ended without an answer); nothing was served.');
    process.exit(1);
  };
  process.once('beforeExit', neverListened);
  return () => process.off('beforeExit', neverListened);
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.webConcurrency > 1 && !isClusterWorker()) return superviseServers(config.webConcurrency, createLogger(config));
  const listening = failIfNeverListening();
  const running = await startServer(config);
  listening();
  await greet(running);
  const shutdown = async (signal: string) => {
    running.runtime.logger.info({ signal }, 'shutting down');
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

export function runEntryPoint(entryUrl: string, run: () => Promise<void>): void {
  if (process.argv[1] && entryUrl === pathToFileURL(process.argv[1]).href) {
    run().catch((error: unknown) => {
      console.error(error instanceof ConfigError || error instanceof Error ? `error: ${error.message}` : error);
      process.exit(1);
    });
  }
}

runEntryPoint(import.meta.url, main);
