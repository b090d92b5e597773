import { get } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIVE_STREAMS_PER_ADDRESS } from '../../src/adapters/dashboard/live-stream.js';
import { dashboardMember, SESSION_COOKIE, type DashboardMember } from '../support/dashboard.js';
import { apiClient, type ApiClient } from '../support/http.js';
import { eventually } from '../support/receiver.js';
import { usingTestServer } from '../support/test-server.js';

let member: DashboardMember;
let otherApi: ApiClient;
let otherMember: DashboardMember;

const { server, merchant, api } = usingTestServer({ env: { CHECKOUT_STREAM_LIFETIME: '2s' } });
beforeAll(async () => {
  member = await dashboardMember(server, { role: 'viewer', merchantId: merchant.id });
  const other = await server.merchant();
  otherApi = apiClient(server.url, { apiKey: other.apiKey });
  otherMember = await dashboardMember(server, { role: 'viewer', merchantId: other.id });
});

interface LiveStream {
  status: number;
  changes: () => number;
  ended: Promise<void>;
  close(): void;
}

/** Opens GET /dashboard/live as the member's browser would, counting the `change` events. */
function openLive(member: DashboardMember, localAddress = '127.0.0.1'): Promise<LiveStream> {
  return new Promise((resolve, reject) => {
    const request = get(
      `${server.url}/dashboard/live`,
      { localAddress, headers: { accept: 'text/event-stream', cookie: `${SESSION_COOKIE}=${member.sessionId}` } },
      (response) => {
        let changes = 0;
        const ended = new Promise<void>((done) => {
          response.on('data', (chunk: Buffer) => {
            changes += chunk.toString('utf8').split('event: change').length - 1;
          });
          response.on('end', () => done());
          response.on('error', () => done());
        });
        resolve({ status: response.statusCode ?? 0, changes: () => changes, ended, close: () => request.destroy() });
      },
    );
    request.on('error', reject);
  });
}

const pendingPayment = async (client: ApiClient) => {
  const res = await client.post('/Thai/v1/qr-codes', { amount: 10_000, currency: 'THB' });
  expect(res.status, res.text).toBe(200);
  return res.body.payment_id as string;
};

describe('GET /dashboard/live', { timeout: 60_000 }, () => {
  it("tells an open page of each change of its merchant's payments, and of no other merchant's", async () => {
    const [stream, otherStream] = await Promise.all([openLive(member), openLive(otherMember)]);
    expect([stream.status, otherStream.status]).toEqual([200, 200]);
    const theirs = await pendingPayment(otherApi);
    expect((await otherApi.post(`/Thai/v1/test/payments/${theirs}/succeed`)).status).toBe(200);
    await eventually(() => otherStream.changes() >= 1, 'the change of the other merchant');
    expect(stream.changes()).toBe(0); // the feed has handled that change: it was not told to us
    const ours = await pendingPayment(api);
    expect((await api.post(`/Thai/v1/test/payments/${ours}/succeed`)).status).toBe(200);
    await eventually(() => stream.changes() >= 1, 'the change of our payment');
    expect(otherStream.changes()).toBe(1);
    const fragment = await member.client.get('/dashboard/?fragment=live');
    expect(fragment.text).toContain(`data-payment-id="${ours}"`);
    expect(fragment.text).not.toContain('<html');
    stream.close();
    otherStream.close();
  });

  it(`keeps at most ${MAX_LIVE_STREAMS_PER_ADDRESS} open per client address (the next answers 429), and ends each after the stream lifetime`, async () => {
    const open = await Promise.all(Array.from({ length: MAX_LIVE_STREAMS_PER_ADDRESS }, () => openLive(member, '127.0.0.3')));
    expect(open.map((s) => s.status)).toEqual(Array(MAX_LIVE_STREAMS_PER_ADDRESS).fill(200));
    const refused = await openLive(member, '127.0.0.3');
    expect(refused.status).toBe(429);
    expect((await openLive(member, '127.0.0.4')).status).toBe(200); // another address still gets one
    await Promise.all(open.map((s) => s.ended)); // CHECKOUT_STREAM_LIFETIME=2s ends them; their places are given back
    const again = await openLive(member, '127.0.0.3');
    expect(again.status).toBe(200);
    again.close();
  });

  it('needs a signed-in member', async () => {
    const anonymous = await new Promise<number>((resolve) => get(`${server.url}/dashboard/live`, (res) => resolve(res.statusCode ?? 0)));
    expect(anonymous).toBe(303);
  });
});
