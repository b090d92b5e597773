import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/app/api-keys.js';
import { KEY_RECHECK_MS, KEY_REFRESH_MS } from '../../src/adapters/http/auth.js';
import { operatorContext } from '../../src/domain/audit.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

/**
 * A key is trusted for KEY_RECHECK_MS after its lookup; the request that finds it older than KEY_REFRESH_MS looks it
 * up again while it is still trusted. So a key in steady use never goes stale, and its requests stay on the hot lane
 * instead of waiting behind Express for the lookup; and a revocation reaches the first request after the refresh age.
 */
const clock = manualClock(new Date('2026-11-27T10:00:00.000Z'));
const { server, merchant, api } = usingTestServer({ clock, env: { METRICS: 'on' } });

async function lanes(): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const family = parsePrometheusTextFormat(text).find((f) => f.name === 'pqr_http_hot_route_requests_total');
  return Object.fromEntries(
    (family?.metrics ?? []).map((m) => [(m as { labels: { outcome: string } }).labels.outcome, Number((m as { value: string }).value)]),
  );
}

describe('an API key in steady use', () => {
  it('is looked up again before it goes stale, so its requests stay on the hot lane; a revocation answers 401 at the next lookup', async () => {
    const created = await api.post('/Thai/v1/qr-codes', { amount: 15_000, currency: 'THB' }); // the key's first lookup: Express's lane
    expect(created.status).toBe(200);
    const retrieval = `/Thai/v1/payments/${(created.body as { payment_id: string }).payment_id}`;

    clock.advance(KEY_REFRESH_MS); // still trusted; this request looks it up again
    expect((await api.get(retrieval)).status).toBe(200);
    clock.advance(KEY_RECHECK_MS - KEY_REFRESH_MS); // a whole recheck period since the first lookup, half of one since the second
    expect((await api.get(retrieval)).status).toBe(200);
    expect(await lanes()).toEqual({ passed_on: 1, taken: 2 });

    await revokeApiKey(server.running.runtime.services, merchant.id, merchant.apiKey.slice(-4), operatorContext);
    expect((await api.get(retrieval)).status).toBe(200); // trusted as looked up at this very time
    clock.advance(KEY_REFRESH_MS);
    const refused = await api.get(retrieval);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 'authentication_failed' } });
    expect(await lanes()).toEqual({ passed_on: 1, taken: 4 });
  });
});
