import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope, type ApiClient } from '../support/http.js';
import { usingReceiver } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';
import { webhookEnv } from './fixtures.js';

const { server } = usingTestServer({ env: { ...webhookEnv, WEBHOOK_DISPATCHER: 'off' } });
const receiver = usingReceiver();

const merchant = async (): Promise<ApiClient> => apiClient(server.url, await server.merchant());
const create = (api: ApiClient, url = receiver.endpoint('/limits')) => api.post('/Thai/v1/webhooks', { url, events: ['payment.succeeded'] });
const total = async (api: ApiClient): Promise<number> => (await api.get('/Thai/v1/webhooks?limit=1')).body.total;
/** A loopback URL of exactly `length` characters. */
const urlOf = (length: number): string => {
  const origin = receiver.endpoint('/');
  return `${origin}${'a'.repeat(length - origin.length)}`;
};

describe('at most 16 webhook endpoints per merchant', () => {
  it('answers the 17th with 422 webhook_limit_reached; disabled ones count, deleted ones do not', async () => {
    const api = await merchant();
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await create(api);
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.webhook_id);
    }
    expect((await api.send('PATCH', `/Thai/v1/webhooks/${ids[0]}`, { status: 'disabled' })).status).toBe(200);

    const refused = await create(api);
    expectEnvelope(refused, 422, 'webhook_limit_reached');
    expect(refused.body.error.type).toBe('validation_error');
    expect(refused.body.error.message).toMatch(/16/);
    expect(await total(api)).toBe(16);

    expect((await api.delete(`/Thai/v1/webhooks/${ids[1]}`)).status).toBe(200);
    expect((await create(api)).status).toBe(200);
    expectEnvelope(await create(api), 422, 'webhook_limit_reached');
    expect(await total(api)).toBe(16);
  });

  it('counts per merchant: another merchant still registers', async () => {
    const full = await merchant();
    for (let i = 0; i < 16; i++) expect((await create(full)).status).toBe(200);
    expectEnvelope(await create(full), 422, 'webhook_limit_reached');
    expect((await create(await merchant())).status).toBe(200);
  });

  it('20 concurrent registrations leave exactly 16 endpoints', async () => {
    const api = await merchant();
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(api)));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(16).fill(200), ...Array(4).fill(422)]);
    for (const res of answers.filter((r) => r.status === 422)) expectEnvelope(res, 422, 'webhook_limit_reached');
    expect(await total(api)).toBe(16);
  });
});

describe('a webhook url is at most 2048 characters', () => {
  it('registers a url of 2048 characters and refuses 2049 with 400 naming url', async () => {
    const api = await merchant();
    const longest = await create(api, urlOf(2048));
    expect(longest.status, longest.text).toBe(200);
    expect(longest.body.url).toBe(urlOf(2048));

    const tooLong = await create(api, urlOf(2049));
    expectEnvelope(tooLong, 400, 'invalid_request');
    expect(tooLong.body.error.param).toBe('url');
    expect(tooLong.body.error.message).toMatch(/2048/);
    expect(await total(api)).toBe(1);
  });

  it('PATCH refuses a url of 2049 characters with 400 naming url, and keeps the old one', async () => {
    const api = await merchant();
    const created = await create(api);
    const path = `/Thai/v1/webhooks/${created.body.webhook_id}`;
    const tooLong = await api.send('PATCH', path, { url: urlOf(2049) });
    expectEnvelope(tooLong, 400, 'invalid_request');
    expect(tooLong.body.error.param).toBe('url');
    expect((await api.get(path)).body.url).toBe(created.body.url);
    const longest = await api.send('PATCH', path, { url: urlOf(2048) });
    expect(longest.status, longest.text).toBe(200);
    expect(longest.body.url).toBe(urlOf(2048));
  });
});
