import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys, revokeApiKey, rollApiKey } from '../../src/app/api-keys.js';
import { operatorContext } from '../../src/domain/audit.js';
import { buildApp } from '../../src/main.js';
import { durableDatabase } from '../webhooks/fixtures.js';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { manualClock, startTestServer, type TestServer } from '../support/test-server.js';

// One clock for both instances, so that "after the delay" and "within a second" are steps of the test, not sleeps.
const clock = manualClock(new Date('2026-11-23T10:00:00.000Z'));
let database: Awaited<ReturnType<typeof durableDatabase>>;
let home: TestServer;
/** The other instance: on PostgreSQL a second server on the same database; PGlite admits one process, so there a
 * second HTTP app (its own key cache, its own rate limiter) on the same database. */
let otherUrl: string;
/** Key uses go out only when the test flushes them (or a server stops), never on the batch's timer mid-test. */
const env = () => ({ ...database.env, API_KEY_USE_FLUSH_MS: '3600000' });
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  database = await durableDatabase();
  home = await startTestServer({ clock, env: env() });
  if (database.env.DATABASE_URL) {
    const other = await startTestServer({ clock, env: env() });
    otherUrl = other.url;
    stops.push(() => other.stop());
  } else {
    const server: Server = createServer(buildApp(home.running.runtime, home.url, { validateResponses: true }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stops.push(() => new Promise((resolve) => server.close(() => resolve())));
  }
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await home.stop();
  await database.drop();
});

const status = async (api: ApiClient): Promise<number> => (await api.get('/Thai/v1/payments?limit=1')).status;
const onBoth = async (apiKey: string): Promise<number[]> => [await status(apiClient(home.url, { apiKey })), await status(apiClient(otherUrl, { apiKey }))];
const services = () => home.running.runtime.services;

describe('API key rotation', () => {
  it('a rolled key works at once on every instance; the old one until the delay, then 401 like an unknown key', async () => {
    const merchant = await home.merchant();
    expect(await onBoth(merchant.apiKey)).toEqual([200, 200]); // both instances now hold the old key in their caches

    const { apiKey: rolled, replaced } = await rollApiKey(services(), merchant.id, 5_000, operatorContext);
    expect(replaced.map((key) => key.expiresAt?.toISOString())).toEqual([new Date(clock.now().getTime() + 5_000).toISOString()]);
    expect(await onBoth(rolled)).toEqual([200, 200]);
    expect(await onBoth(merchant.apiKey)).toEqual([200, 200]);

    clock.advance(4_999);
    expect(await onBoth(merchant.apiKey)).toEqual([200, 200]);
    clock.advance(1);
    expect(await onBoth(merchant.apiKey)).toEqual([401, 401]);
    expect(await onBoth(rolled)).toEqual([200, 200]);
    const expired = await apiClient(otherUrl, { apiKey: merchant.apiKey }).get('/Thai/v1/payments?limit=1');
    const unknown = await apiClient(otherUrl, { apiKey: `${merchant.apiKey.slice(0, -4)}zzzz` }).get('/Thai/v1/payments?limit=1');
    expectEnvelope(expired, 401, 'authentication_failed');
    expect(expired.body.error.message).toBe(unknown.body.error.message);
  });

  it('rolling with no delay stops the old keys at once; a key due sooner keeps its earlier expiry', async () => {
    const merchant = await home.merchant();
    clock.advance(1);
    const secondAt = clock.now().getTime();
    const second = await rollApiKey(services(), merchant.id, 60_000, operatorContext);
    clock.advance(1);
    const third = await rollApiKey(services(), merchant.id, 3_600_000, operatorContext);
    const keys = await listApiKeys(services(), merchant.id);
    expect(keys.map((key) => key.last4)).toEqual([third.apiKey.slice(-4), second.apiKey.slice(-4), merchant.apiKey.slice(-4)]);
    expect(keys[1]!.expiresAt!.getTime() - clock.now().getTime()).toBe(3_600_000);
    expect(keys[2]!.expiresAt!.getTime() - secondAt).toBe(60_000); // not pushed back by the later roll

    const fourth = await rollApiKey(services(), merchant.id, 0, operatorContext);
    expect(await onBoth(second.apiKey)).toEqual([401, 401]);
    expect(await onBoth(third.apiKey)).toEqual([401, 401]);
    expect(await onBoth(fourth.apiKey)).toEqual([200, 200]);
  });

  it('a revoked key answers 401 on another instance within a second', async () => {
    const merchant = await home.merchant();
    const spare = await rollApiKey(services(), merchant.id, 86_400_000, operatorContext);
    expect(await onBoth(merchant.apiKey)).toEqual([200, 200]);

    const revoked = await revokeApiKey(services(), merchant.id, merchant.apiKey.slice(-4), operatorContext);
    expect(revoked.revokedAt).not.toBeNull();
    clock.advance(1_000);
    expect(await onBoth(merchant.apiKey)).toEqual([401, 401]);
    expect(await onBoth(spare.apiKey)).toEqual([200, 200]);
    await expect(revokeApiKey(services(), merchant.id, merchant.apiKey.slice(-4), operatorContext)).rejects.toThrow(/no unrevoked key ending/);
  });

  it("keeps each key's last use, written in batches, and lists keys without the key itself", async () => {
    const merchant = await home.merchant();
    clock.advance(1);
    const unused = await rollApiKey(services(), merchant.id, 86_400_000, operatorContext);
    clock.advance(1_000);
    const usedAt = clock.now().toISOString();
    expect(await onBoth(merchant.apiKey)).toEqual([200, 200]);
    // Nothing is written per request: the use is in memory until the batch goes out.
    expect((await listApiKeys(services(), merchant.id)).map((key) => key.lastUsedAt)).toEqual([null, null]);
    await home.running.runtime.keyUsage.flush();
    const keys = await listApiKeys(services(), merchant.id);
    expect(keys.map((key) => key.lastUsedAt?.toISOString() ?? null)).toEqual([null, usedAt]);
    expect(keys[0]!.last4).toBe(unused.apiKey.slice(-4));
    expect(JSON.stringify(keys)).not.toContain(merchant.apiKey);
    expect(JSON.stringify(keys)).not.toContain(unused.apiKey);
  });
});
