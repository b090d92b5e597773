/**
 * What every drill shares: a context that collects checks (guarantees, PASS/FAIL) and figures (reported, never
 * failing), deferred cleanup that runs whatever ends the drill, and the result table.
 */
import { availableParallelism, loadavg, totalmem } from 'node:os';

export interface Row {
  what: string;
  observed: string;
  expected: string;
  /** null: a figure, reported only. */
  ok: boolean | null;
}

export interface DrillContext {
  short: boolean;
  rows: Row[];
  /** A guarantee: FAIL makes the drill (and `npm run drill`) exit non-zero. */
  check(what: string, observed: unknown, ok: boolean, expected: string): boolean;
  /** A figure, reported only. */
  figure(what: string, observed: unknown, note?: string): void;
  /** Cleanup, last-registered first, run when the drill ends however it ends. */
  defer(task: () => Promise<unknown> | unknown): void;
  log(message: string): void;
  /** Details printed under the table (failing requests, proposals). */
  note(message: string): void;
  notes: string[];
}

/** The drill cannot run on this machine (a program is not installed): `npm run drill` says what to install and exits 2. */
export class MissingPrerequisite extends Error {}

export interface Drill {
  name: string;
  summary: string;
  /** The drill is aborted (and fails) when it runs longer than this. */
  timeLimitMs(short: boolean): number;
  run(ctx: DrillContext): Promise<void>;
}

export function createContext(name: string, short: boolean): DrillContext & { cleanup(): Promise<void> } {
  const rows: Row[] = [];
  const notes: string[] = [];
  const tasks: (() => Promise<unknown> | unknown)[] = [];
  const started = Date.now();
  let cleaning: Promise<void> | null = null;
  const show = (value: unknown): string => (typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(1)) : String(value));
  return {
    short,
    rows,
    notes,
    check(what, observed, ok, expected) {
      rows.push({ what, observed: show(observed), expected, ok });
      return ok;
    },
    figure(what, observed, note = '') {
      rows.push({ what, observed: show(observed), expected: note, ok: null });
    },
    defer: (task) => void tasks.push(task),
    log: (message) => console.log(`[${name} ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`),
    note: (message) => void notes.push(message),
    cleanup: () =>
      (cleaning ??= (async () => {
        for (const task of tasks.reverse()) {
          try {
            await task();
          } catch (error) {
            console.error(`[${name}] cleanup: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      })()),
  };
}

export function machine(): string {
  return `${availableParallelism()} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
}

export function printTable(title: string, rows: Row[]): void {
  const head = ['', 'what', 'observed', 'expected'];
  const cells = rows.map((r) => [r.ok === null ? '    ' : r.ok ? 'PASS' : 'FAIL', r.what, r.observed, r.expected]);
  const widths = head.map((h, i) => Math.min(i === 3 ? 60 : 70, Math.max(h.length, ...cells.map((c) => c[i]!.length))));
  const line = (c: string[]) =>
    c
      .map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(`\n== ${title}`);
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const c of cells) console.log(line(c));
}

/** Percentile of a sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const ms = (n: number): string => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : n.toFixed(0)} ms` : '-');

/** Polls until probe returns truthy or the deadline passes; returns the last value. */
export async function waitFor<T>(probe: () => Promise<T> | T, timeoutMs: number, intervalMs = 100): Promise<{ value: T; ok: boolean; waitedMs: number }> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return { value, ok: true, waitedMs: Date.now() - start };
    if (Date.now() - start > timeoutMs) return { value, ok: false, waitedMs: Date.now() - start };
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export const sleep = (msDelay: number) => new Promise((resolve) => setTimeout(resolve, msDelay));
