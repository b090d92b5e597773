import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker that dies before it serves is replaced after this pause, so a server that cannot start does not spin. */
const RESTART_PAUSE_MS = 1_000;

/**
 * WEB_CONCURRENCY=N: this (primary) process serves nothing itself; it keeps N server processes running on the one
 * port (node:cluster hands them the connections), replaces one that dies, and on SIGTERM or SIGINT passes the signal
 * on and exits once every worker has drained. Each worker is a whole server with its own background jobs, rate
 * limiter and key cache, as separate instances are.
 */
export function superviseServers(processes: number, logger: Logger): void {
  let stopping = false;
  const fork = (): Worker => {
    const worker = cluster.fork();
    let listening = false;
    worker.once('listening', () => (listening = true));
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      logger.warn({ pid: worker.process.pid, code, signal }, 'server process died; starting another');
      setTimeout(fork, listening ? 0 : RESTART_PAUSE_MS).unref();
    });
    return worker;
  };
  for (let i = 0; i < processes; i++) fork();
  logger.info({ processes }, `running ${processes} server processes (WEB_CONCURRENCY)`);

  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    logger.info({ signal }, 'shutting down every server process');
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const worker of workers) {
      worker.once('exit', () => --left === 0 && process.exit(0));
      worker.process.kill(signal);
    }
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

export const isClusterWorker = (): boolean => cluster.isWorker;

/** The process that speaks for a start: the only one, or the first server a WEB_CONCURRENCY primary forked. */
export const isFirstServerProcess = (): boolean => !cluster.isWorker || cluster.worker?.id === 1;
