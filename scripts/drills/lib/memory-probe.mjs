// Preloaded into a drill's server child (node --expose-gc --import this): on SIGUSR2 it runs a full garbage
// collection and prints process.memoryUsage() as one line, so a drill can tell a leak from a heap that has not
// been collected yet. Plain JavaScript: it loads before tsx.
/* global process, setTimeout */
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  setTimeout(() => process.stderr.write(`DRILL_MEMORY ${JSON.stringify(process.memoryUsage())}\n`), 50);
});
