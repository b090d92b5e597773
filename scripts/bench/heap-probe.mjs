/**
 * Loaded into a server under measurement (`node --expose-gc --import scripts/bench/heap-probe.mjs server/dist/main.js`)
 * by ./per-request.ts, which changes nothing of the server. It reads commands from stdin, one a line: `gc` collects
 * garbage (full), `read` writes one line to stdout, `PROBE {json}`, with the bytes on V8's heap now, the garbage
 * collections so far and the process's CPU time. Between a `read` and the next, with no collection in between, the
 * heap's growth is exactly what the process allocated on it. `sample` starts V8's sampling heap profiler (objects
 * collected since kept in the profile), `sample FILE` stops it and writes the profile to FILE (a .heapprofile).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import process from 'node:process';
import { createInterface } from 'node:readline';
import v8 from 'node:v8';

let collections = 0;
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ['gc'] });

let session = null;

createInterface({ input: process.stdin }).on('line', (command) => {
  if (command === 'sample') {
    session = new Session();
    session.connect();
    session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  } else if (command.startsWith('sample ') && session) {
    const file = command.slice(7);
    const done = session;
    session = null;
    done.post('HeapProfiler.stopSampling', (error, result) => {
      writeFileSync(file, JSON.stringify(error ? { error: String(error) } : result.profile));
      done.disconnect();
      process.stdout.write('PROBE {}\n');
    });
  }
  if (command === 'gc' && typeof globalThis.gc === 'function') globalThis.gc();
  if (command !== 'read') return;
  const { used_heap_size: usedHeap } = v8.getHeapStatistics();
  const { user, system } = process.cpuUsage();
  process.stdout.write(`PROBE ${JSON.stringify({ usedHeap, collections, cpuMicros: user + system })}\n`);
});
