/**
 * Test setup for `scripts/test-profile.ts`: when TEST_PROFILE_OUT names a file, appends one JSON line per test file
 * with the CPU seconds the worker spent on it, its own and its finished children's (CLI processes, Chromium), and the
 * system time within them (the kernel's share: process starts, page faults, files), as Linux counts them in
 * /proc/self/stat. Files in one worker run one after another, so the difference is the file's (its import included; the worker's
 * own start-up is not).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const out = process.env.TEST_PROFILE_OUT;
const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime: fields 14 to 17 of /proc/self/stat (after the command name in parentheses). */
function cpuTicks(): { own: number; children: number; system: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const at = (field: number) => Number(fields[field - 3]);
  return { own: at(14) + at(15), children: at(16) + at(17), system: at(15) + at(17) };
}

if (out) {
  const start = cpuTicks(); // setup files run before each test file is imported: its import counts too
  let file = '';
  beforeAll(() => {
    file = expect.getState().testPath ?? '';
  });
  afterAll(() => {
    const end = cpuTicks();
    const seconds = (key: 'own' | 'children' | 'system') => (end[key] - start[key]) / TICKS_PER_SECOND;
    const line = { file, ownCpuS: seconds('own'), childrenCpuS: seconds('children'), systemCpuS: seconds('system') };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
