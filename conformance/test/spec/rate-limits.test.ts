import { PaymentQrClient } from '@payment-qr/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { rateLimitsGroup } from '../../src/groups/rate-limits.js';
import { manualClock, startService } from '../support/in-process.js';
import { testGroup } from '../support/kit.js';

// A limit of 1 a second and a clock that moves only when the kit moves it: once a bucket is empty, it stays empty.
const service = await startService({ clock: manualClock(new Date('2026-11-23T10:00:00.000Z')), env: { RATE_LIMIT_PER_SECOND: '1' } });
afterAll(() => service.stop());

testGroup(rateLimitsGroup, service.target);

describe('the SDK against the real limit', () => {
  it('waits what Retry-After says and sends the call again, with the same Idempotency-Key', async () => {
    // The service's clock moves only when a 429 tells the SDK to wait: the SDK's real wait is what refills the bucket.
    const waitClock = manualClock(new Date('2026-11-23T10:00:00.000Z'));
    const limited = await startService({ clock: waitClock, env: { RATE_LIMIT_PER_SECOND: '1' } });
    try {
      const { apiKey } = await limited.target.operator!.newMerchant();
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
