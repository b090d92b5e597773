import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, expect, it } from 'vitest';
import { startBuiltServer } from '../support/built-server.js';

const BIN = fileURLToPath(new URL('../../bin/payment-qr-conformance.js', import.meta.url));

/** The command as QA runs it, in a process of its own: its exit code and what it printed. */
const runBin = (args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 900_000 }, (error, stdout) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout });
    });
  });

const server = await startBuiltServer();
const scratch = mkdtempSync(join(tmpdir(), 'payment-qr-kit-'));
afterAll(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

it('checks a built server it did not start, over HTTP only: every check passes or needs an in-process run, with JUnit XML', async () => {
  const junitFile = join(scratch, 'reports', 'conformance.xml');
  const { code, stdout } = await runBin(['--base-url', server.url, '--api-key', server.apiKey, '--junit', junitFile, '--receiver-host', '127.0.0.1']);
  const lines = stdout.trimEnd().split('\n');
  const failed = lines.filter((line) => line.startsWith('FAIL'));
  expect(failed, stdout.slice(-20_000)).toEqual([]);
  expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed$/);
  expect(code).toBe(0);
  expect(stdout).not.toContain(server.apiKey);
  // Every group ran; what did not run here is what only a run beside the server can do.
  for (const group of ['service', 'pact', 'errors', 'idempotency', 'pagination', 'request-id', 'rate-limits', 'generated', 'webhooks', 'bank']) {
    expect(
      lines.some((line) => line.includes(` ${group} › `)),
      group,
    ).toBe(true);
  }
  expect(lines.filter((line) => line.startsWith('SKIP') && !line.includes('needs an in-process run'))).toEqual([]);
  expect(lines.filter((line) => line.startsWith('PASS') && line.includes(' webhooks › '))).toHaveLength(4);

  const report = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junitFile, 'utf8')) as {
    testsuites: { '@_tests': string; '@_failures': string; '@_skipped'?: string; testsuite: unknown[] };
  };
  const passed = Number(/^(\d+) passed/.exec(lines.at(-1)!)![1]);
  const skipped = lines.filter((line) => line.startsWith('SKIP')).length;
  expect(Number(report.testsuites['@_failures'])).toBe(0);
  expect(Number(report.testsuites['@_tests'])).toBe(passed + skipped);
}, 900_000);
