// The SDK's README examples, run unchanged but for baseUrl against `prism mock` of the served-paths contract the
// contract package ships: the contract's examples must satisfy the SDK's types and code paths, and every request
// the SDK sends must satisfy the contract (Prism answers a violation with an error and `sl-violations`).
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contract } from '../../src/contract.js';
import { SERVED_PATHS_CONTRACT } from '../support/served-paths.js';
import { startPrismMock, type PrismMock } from '../support/prism.js';

const examplesDir = fileURLToPath(new URL('../../../sdk/examples/', import.meta.url));
const API_KEY = 'sk_test_prism_mock';
/** The Express receiver only verifies deliveries; sdk/test/readme.test.ts runs it against the real service. */
const NOT_API_CALLERS = ['webhook-express.ts'];

const example = <T>(name: string): T => {
  const examples = (contract.components as unknown as { examples: Record<string, { value: unknown }> }).examples;
  const found = examples[name];
  if (!found) throw new Error(`the contract has no example ${name}`);
  return found.value as T;
};

/**
 * Prism answers each operation's first example (the quick start runs on those alone). Where the sandbox would
 * answer otherwise, the request asks Prism for the documented example it matches (`Prefer`), as a developer would.
 */
const SANDBOX_ANSWERS: { method: string; path: RegExp; body?: RegExp; prefer: string }[] = [
  // The sandbox declines the test card token tok_declined.
  { method: 'POST', path: /\/Thai\/v1\/payments$/, body: /"tok_declined"/, prefer: 'code=402, example=cardDeclined' },
];

describe('the SDK README examples against prism mock of the served-paths contract', () => {
  let prism: PrismMock;
  const violations: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const logged = () => log.mock.calls.map((args) => args.join(' '));
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    prism = await startPrismMock(SERVED_PATHS_CONTRACT);
    process.env.PAYMENT_QR_API_KEY = API_KEY;
    process.env.PAYMENT_QR_BASE_URL = prism.url;
    // The examples use the global fetch (the SDK's default): this seam adds Prefer and records violations.
    vi.stubGlobal('fetch', async (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      const body = request.method === 'GET' ? '' : await request.clone().text();
      const answer = SANDBOX_ANSWERS.find((a) => a.method === request.method && a.path.test(new URL(request.url).pathname) && (!a.body || a.body.test(body)));
      const headers = new Headers(request.headers);
      if (answer) headers.set('prefer', answer.prefer);
      const response = await realFetch(request.url, { method: request.method, headers, body: body === '' ? undefined : body, signal: request.signal });
      const violation = response.headers.get('sl-violations');
      if (violation) violations.push(`${request.method} ${new URL(request.url).pathname} -> ${response.status}: ${violation}`);
      return response;
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    log.mockRestore();
    delete process.env.PAYMENT_QR_API_KEY;
    delete process.env.PAYMENT_QR_BASE_URL;
    await prism?.stop();
  });

  /** What each example prints, from the contract's own examples; an example not listed here must still run. */
  const expectedLogs: Record<string, () => string[]> = {
    'quick-start.ts': () => [
      `<img src="${prism.url}/Thai/qr-codes/${example<{ qr_code_id: string }>('QrCode').qr_code_id}/image?format=svg&size=400" alt="Scan to pay 1,500.00 THB">`,
      `Payment ${example<{ payment_id: string }>('PaymentSucceeded').payment_id} is ${example<{ status: string }>('PaymentSucceeded').status}`,
      `Refund ${example<{ refund_id: string }>('Refund').refund_id}: ${example<{ status: string }>('Refund').status}`,
    ],
    // The documented 402 becomes a PaymentDeclinedError carrying its code.
    'errors.ts': () => [`Card refused: ${example<{ error: { code: string } }>('ErrorCardDeclined').error.code}`],
    'pagination.ts': () => {
      const transactions = example<{ transactions: { amount: number }[] }>('TransactionList').transactions;
      const payments = example<{ payments: unknown[]; total: number }>('PaymentList');
      return [
        `Received ${transactions.reduce((sum, t) => sum + t.amount, 0) / 100} THB`,
        `${payments.total} pending payments, showing ${payments.payments.length}; more: false`,
      ];
    },
    'retries.ts': () => [example<{ qr_code_id: string }>('QrCode').qr_code_id],
    'webhook-setup.ts': () => [`${example<{ webhook_id: string }>('Webhook').webhook_id} ${example<{ secret: string }>('WebhookSecret').secret}`],
  };
  const typeScriptExamples = readdirSync(examplesDir).filter((name) => name.endsWith('.ts') && !NOT_API_CALLERS.includes(name));

  it('runs the examples the README shows', () => {
    expect(typeScriptExamples).toEqual(expect.arrayContaining(Object.keys(expectedLogs)));
  });

  it.each(typeScriptExamples)('%s runs and prints what the contract\u2019s examples say', async (file) => {
    log.mockClear();
    await import(pathToFileURL(`${examplesDir}${file}`).href);
    if (expectedLogs[file]) expect(logged()).toEqual(expectedLogs[file]());
  });

  it.each(['esm.mjs', 'commonjs.cjs'])('%s runs as a plain Node program (import and require)', async (file) => {
    const { stdout } = await promisify(execFile)(process.execPath, [`${examplesDir}${file}`], {
      env: { ...process.env, PAYMENT_QR_API_KEY: API_KEY, PAYMENT_QR_BASE_URL: prism.url },
    });
    const qrCode = example<{ qr_code_id: string; payment_id: string; status: string }>('QrCode');
    expect(stdout).toBe(`QR code ${qrCode.qr_code_id} for payment ${qrCode.payment_id}: ${qrCode.status}\n`);
  });

  it('sent nothing the contract does not allow', () => {
    expect(violations).toEqual([]);
  });
});
