import { loadConfig } from './config.js';
import { openRuntime, runEntryPoint, startBackgroundWork, startBankReconciliation, startPayoutWork } from './main.js';

/** `npm run worker`: the background jobs (expiry sweeper, webhook dispatcher, bank reconciliation) without the API. */
async function worker(): Promise<void> {
  const runtime = await openRuntime(loadConfig());
  const stopBackground = startBackgroundWork(runtime);
  const stopPayouts = startPayoutWork(runtime);
  const stopReconciliation = startBankReconciliation(runtime);
  const stop = () => Promise.all([stopBackground(), stopPayouts(), stopReconciliation()]);
  runtime.logger.info(`worker running (${runtime.db.kind} database)`);
  const shutdown = async () => {
    await stop();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

runEntryPoint(import.meta.url, worker);
