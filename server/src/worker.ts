import { loadConfig } from './config.js';
import { openRuntime, runEntryPoint, startBackgroundWork, startPayoutWork } from './main.js';

/** `npm run worker`: the expiry sweeper and webhook dispatcher alone, sharing the database with any servers. */
async function worker(): Promise<void> {
  const runtime = await openRuntime(loadConfig());
  const stopBackground = startBackgroundWork(runtime);
  const stopPayouts = startPayoutWork(runtime);
  const stop = () => Promise.all([stopBackground(), stopPayouts()]);
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
