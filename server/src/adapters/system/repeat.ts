/**
 * Runs a background job again and again, `intervalMs` after each run ends (so runs never overlap), reporting each
 * failure and going on. Returns the stop function, which waits for a run in progress.
 */
export function repeat(job: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void, { startNow = true } = {}): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = job()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs);
      });
  };
  let timer = startNow ? undefined : setTimeout(run, intervalMs);
  if (startNow) run();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
