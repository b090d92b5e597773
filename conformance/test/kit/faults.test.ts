import { afterAll, describe, expect, it } from 'vitest';
import { runKit, type Result } from '../../src/run.js';
import type { Target } from '../../src/target.js';
import { startBuiltServer } from '../support/built-server.js';
import { DELIVERIES, startFaultProxy, type Fault } from '../support/fault-proxy.js';
import { freePort } from '../support/prism.js';

// A real service the kit does not start, behind a proxy that breaks one thing at a time.
const server = await startBuiltServer();
const receiverPort = await freePort();
const proxy = await startFaultProxy(server.url, receiverPort);
afterAll(async () => {
  await proxy.stop();
  await server.stop();
});

const target: Target = {
  baseUrl: proxy.url,
  apiKey: server.apiKey,
  receiver: { host: '127.0.0.1', port: receiverPort, publicUrl: `${proxy.url}${DELIVERIES}` },
};

const FAULTS: { fault: Fault; only: string[]; named: RegExp }[] = [
  { fault: 'drop-request-id', only: ['request-id'], named: /no Request-Id header/ },
  { fault: 'rename-field', only: ['pact'], named: /refunded_amount/ },
  { fault: 'not-found-as-500', only: ['errors'], named: /retrievePayment: expected HTTP 404, got HTTP 500/ },
  {
    fault: 'new-payment-on-replay',
    only: ['idempotency'],
    named: /createQrCode: a retry with the same Idempotency-Key and body must answer the first answer again/,
  },
  { fault: 'conflict-as-200', only: ['idempotency'], named: /createQrCode: expected HTTP 409, got HTTP 200/ },
  { fault: 'repeat-across-pages', only: ['pagination'], named: /repeated across pages/ },
  { fault: 'wrong-signature', only: ['webhooks'], named: /webhook-signature does not verify with the endpoint's signing secret/ },
  { fault: 'strip-ratelimit', only: ['rate-limits'], named: /no RateLimit-Policy field/ },
];

const failuresOf = (results: Result[]) => results.filter((r) => r.outcome === 'failed');
const shown = (results: Result[]) => results.map((r) => `${r.outcome} ${r.group} › ${r.name}${r.message ? `: ${r.message}` : ''}`).join('\n');

describe('the kit catches each fault of a deployment, by name', () => {
  it('passes through the proxy while it breaks nothing (the groups the faults use)', async () => {
    proxy.fault = 'none';
    const results = await runKit({ target, only: [...new Set(FAULTS.flatMap((f) => f.only))] });
    expect(failuresOf(results), shown(failuresOf(results))).toEqual([]);
    expect(results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(100);
  }, 600_000);

  it.each(FAULTS)(
    '$fault: the kit fails, naming it',
    async ({ fault, only, named }) => {
      proxy.fault = fault;
      try {
        const results = await runKit({ target, only });
        const failures = failuresOf(results);
        expect(failures.length, `no check failed under ${fault}:\n${shown(results)}`).toBeGreaterThan(0);
        expect(
          failures.some((r) => named.test(r.message ?? '')),
          `no failure names ${fault} (${named}):\n${shown(failures)}`,
        ).toBe(true);
      } finally {
        proxy.fault = 'none';
      }
    },
    300_000,
  );
});

describe('every request is bounded', () => {
  it('stops sending once the run has spent its request budget, and says so', async () => {
    const before = proxy.forwarded;
    const results = await runKit({ target, only: ['errors'], limits: { timeoutMs: 15_000, maxRequests: 30, totalMs: 600_000 } });
    expect(proxy.forwarded - before).toBeLessThanOrEqual(30);
    expect(failuresOf(results).some((r) => /budget of 30 requests is spent/.test(r.message ?? ''))).toBe(true);
  }, 300_000);
});
