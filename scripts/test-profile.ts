/**
 * `node --import tsx scripts/test-profile.ts <package> [vitest arguments...]`: runs the package's vitest suite (or the
 * files named) once and prints a table of wall and CPU seconds per test file, heaviest first, then the whole run's
 * CPU (user + system, children included, as getrusage counts them through /usr/bin/time) and the test count.
 * CPU is the measure on a shared machine; wall time is printed beside it with the load average.
 *
 *   node --import tsx scripts/test-profile.ts server
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx scripts/test-profile.ts server test/http
 *
 * Per-file CPU comes from scripts/lib/cpu-per-file.ts (a setup file every package's vitest config lists): the worker's
 * CPU and its finished children's while the file ran, import included. Wall per file is vitest's JSON report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

interface JsonReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number; status: string }[];
}

const [pkg, ...vitestArgs] = process.argv.slice(2);
if (!pkg) {
  console.error('usage: scripts/test-profile.ts <package directory: server, sdk, conformance> [vitest arguments...]');
  process.exit(2);
}
const cwd = resolve(import.meta.dirname, '..', pkg);
const scratch = mkdtempSync(join(tmpdir(), 'pqr-profile-'));
const [report, perFile, times] = ['report.json', 'cpu.jsonl', 'time.txt'].map((name) => join(scratch, name)) as [string, string, string];

const loadBefore = loadavg()[0]!;
const started = performance.now();
const run = spawnSync(
  '/usr/bin/time',
  ['-f', '%U %S %M', '-o', times, 'npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...vitestArgs],
  { cwd, stdio: 'inherit', env: { ...process.env, TEST_PROFILE_OUT: perFile } },
);
const wallS = (performance.now() - started) / 1000;

const json = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
const cpu = new Map(
  readFileSync(perFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { file: string; ownCpuS: number; childrenCpuS: number; systemCpuS: number })
    .map((row) => [row.file, row]),
);
const rows = json.testResults
  .map((result) => {
    const measured = cpu.get(result.name);
    return {
      file: relative(cwd, result.name),
      wallS: (result.endTime - result.startTime) / 1000,
      ownCpuS: measured?.ownCpuS ?? NaN,
      childrenCpuS: measured?.childrenCpuS ?? NaN,
      systemCpuS: measured?.systemCpuS ?? NaN,
      status: result.status,
    };
  })
  .sort((a, b) => b.ownCpuS + b.childrenCpuS - (a.ownCpuS + a.childrenCpuS));

const fixed = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
console.log('\n| file | wall s | CPU s (own) | CPU s (children) | of which system | status |\n|---|---|---|---|---|---|');
for (const row of rows)
  console.log(`| ${row.file} | ${fixed(row.wallS)} | ${fixed(row.ownCpuS)} | ${fixed(row.childrenCpuS)} | ${fixed(row.systemCpuS)} | ${row.status} |`);
const [user, system, maxRssKb] = readFileSync(times, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number, number];
const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + (Number.isNaN(pick(row)) ? 0 : pick(row)), 0);
console.log(
  `\n${rows.length} files, ${json.numTotalTests} tests (${json.numPassedTests} passed, ${json.numFailedTests} failed); ` +
    `whole run: ${(user + system).toFixed(0)} CPU s (user ${user.toFixed(0)} + system ${system.toFixed(0)}, children included), ` +
    `${wallS.toFixed(0)} s wall, peak RSS of one process ${Math.round(maxRssKb / 1024)} MiB; ` +
    `files' CPU sum ${sum((row) => row.ownCpuS + row.childrenCpuS).toFixed(0)} s (system ${sum((row) => row.systemCpuS).toFixed(0)}); load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
);
rmSync(scratch, { recursive: true, force: true });
process.exit(run.status ?? 1);
