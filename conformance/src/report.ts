import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type { Builder } from 'junit-report-builder';
import type { Result } from './run.js';

// CommonJS whose types describe an ES default export: required, its builder is what `module.exports` holds.
const junit = createRequire(import.meta.url)('junit-report-builder') as Builder;

const MARK: Record<Result['outcome'], string> = { passed: 'PASS', failed: 'FAIL', 'not-run': 'SKIP' };

/** One line per check (a failure's explanation indented under it). */
export function lineOf(result: Result): string {
  const head = `${MARK[result.outcome]}  ${result.group} › ${result.name}`;
  if (result.outcome === 'passed') return `${head} (${result.ms} ms)`;
  if (result.outcome === 'not-run') return `${head}: ${result.message}`;
  return `${head}\n${(result.message ?? '').replace(/^/gm, '      ')}`;
}

/**
 * The verdict: how many checks were not run here, by the kind of run that could run them (each check's own reason is
 * on its SKIP line), then `N passed, M failed` alone on the last line.
 */
export function summaryOf(results: Result[]): string {
  const count = (outcome: Result['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const kinds = new Map<string, number>();
  for (const r of results.filter((x) => x.outcome === 'not-run')) kinds.set(r.where ?? r.message ?? '', (kinds.get(r.where ?? r.message ?? '') ?? 0) + 1);
  const notRun = [...kinds].map(([where, n]) => `  ${n} ${where}`);
  const heading = `${count('not-run')} not run here (each SKIP line says why):`;
  return [...(notRun.length ? [heading, ...notRun] : []), `${count('passed')} passed, ${count('failed')} failed`].join('\n');
}

/** JUnit XML for CI: a suite per group, a failure with what differed, a skipped case with why it was not run. */
export function writeJunit(results: Result[], file: string): void {
  const builder = junit.newBuilder();
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const result of results) {
    if (!suites.has(result.group)) suites.set(result.group, builder.testSuite().name(`payment-qr-conformance ${result.group}`));
    const testCase = suites
      .get(result.group)!
      .testCase()
      .className(`payment-qr-conformance.${result.group}`)
      .name(result.name)
      .time(result.ms / 1000);
    if (result.outcome === 'failed') testCase.failure(result.message ?? 'failed');
    if (result.outcome === 'not-run') testCase.skipped().standardOutput(result.message ?? '');
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, builder.build());
}
