import { startMetricsServer } from './adapters/metrics/metrics-server.js';
import { loadConfig } from './config.js';
import { openRuntime, runEntryPoint, startBackgroundWork, startBankReconciliation, startCountFolding, startPayoutWork, startTaxInvoicing } from './main.js';

/** `npm run worker`: the background jobs (expiry sweeper, webhook dispatcher, payouts, bank reconciliation, count folding, tax invoices) without the API. */
async function worker(): Promise<void> {
  const runtime = await openRuntime(loadConfig());
  const stopBackground = startBackgroundWork(runtime);
  const stopPayouts = startPayoutWork(runtime);
  const stopReconciliation = startBankReconciliation(runtime);
  const stopFolding = startCountFolding(runtime);
  const stopInvoicing = startTaxInvoicing(runtime);
  const stop = () => Promise.all([stopBackground(), stopPayouts(), stopReconciliation(), stopFolding(), stopInvoicing()]);
  // METRICS_PORT: the worker's own series (webhook attempts, backlog, pool); METRICS=on alone has no port to use here.
  const metrics =
    runtime.metrics && runtime.config.metrics.port !== null
      ? await startMetricsServer(runtime.metrics, runtime.config.metrics.port, runtime.config.host)
      : null;
  runtime.logger.info(`worker running (${runtime.db.kind} database)${metrics ? `; metrics on ${metrics.url}` : ''}`);
  const shutdown = async () => {
    await metrics?.stop();
    await stop();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

runEntryPoint(import.meta.url, worker);
