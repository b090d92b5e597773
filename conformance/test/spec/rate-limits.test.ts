import { PaymentQrClient } from '@payment-qr/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractProblems } from '../support/contract-check.js';
import { merchantOperations, operation } from '../support/contract.js';
import { errorTriggers, seedFixture, type Fixture } from '../support/error-triggers.js';
import { manualClock } from '../support/clock.js';
import { startService, type Service } from '../support/service.js';

// A limit of 1 a second and a clock that never moves: once a bucket is empty, every request it counts answers 429.
const clock = manualClock(new Date('2026-11-23T10:00:00.000Z'));
let service: Service;
let fixture: Fixture;
beforeAll(async () => {
  service = await startService({ clock, env: { RATE_LIMIT_PER_SECOND: '1' } });
  fixture = await seedFixture(service);
});
afterAll(async () => {
  await service?.stop();
});

/** Any authenticated request of the operation: one of its error triggers other than 401 (which has no merchant). */
const requestOf = (operationId: string) => Object.entries(errorTriggers[operationId] ?? {}).find(([status]) => status !== '401')?.[1];

describe('429 rate_limit_exceeded, as the contract documents it for every operation', () => {
  it('is documented for every operation', () => {
    expect(merchantOperations.filter((op) => !op.responses['429']).map((op) => op.operationId)).toEqual([]);
  });

  it.each(merchantOperations.map((op) => op.operationId))('%s', async (operationId) => {
    const request = requestOf(operationId);
    expect(request, `no request drives ${operationId}`).toBeDefined();
    await request!(fixture); // empties the bucket this operation counts against, if it is not empty already
    const exchange = await request!(fixture);
    expect(exchange.status, `${exchange.method} ${exchange.path}: ${exchange.text.slice(0, 200)}`).toBe(429);
    expect(contractProblems(operation(operationId), exchange)).toEqual([]);
    expect((exchange.json as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect(Number(exchange.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(exchange.headers.get('ratelimit-policy')).toMatch(/^"(merchant|address)";q=1;w=1$/);
    expect(exchange.headers.get('ratelimit')).toMatch(/^"(merchant|address)";r=0;t=1$/);
  });
});

describe('the SDK against the real limit', () => {
  it('waits what Retry-After says and sends the call again, with the same Idempotency-Key', async () => {
    // The service's clock moves only when a 429 tells the SDK to wait: the SDK's real wait is what refills the bucket.
    const waitClock = manualClock(new Date('2026-11-23T10:00:00.000Z'));
    const limited = await startService({ clock: waitClock, env: { RATE_LIMIT_PER_SECOND: '1' } });
    try {
      const { apiKey } = await limited.merchant();
      const seen: { status: number; key: string | null }[] = [];
      const client = new PaymentQrClient({
        apiKey,
        baseUrl: limited.url,
        maxRetries: 3,
        fetch: async (input, init) => {
          const request = new Request(input, init);
          const response = await fetch(request);
          seen.push({ status: response.status, key: request.headers.get('idempotency-key') });
          const wait = Number(response.headers.get('retry-after') ?? 0);
          waitClock.set(new Date(waitClock.now().getTime() + wait * 1000));
          return response;
        },
      });
      await client.qrCodes.create({ amount: 10000, currency: 'THB' });
      const second = await client.qrCodes.create({ amount: 20000, currency: 'THB' }, { idempotencyKey: 'sdk-429' });
      expect(second.amount).toBe(20000);
      expect(seen).toEqual([
        { status: 200, key: expect.any(String) },
        { status: 429, key: 'sdk-429' },
        { status: 200, key: 'sdk-429' },
      ]);
    } finally {
      await limited.stop();
    }
  });
});
