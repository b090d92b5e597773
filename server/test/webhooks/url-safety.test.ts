import { describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/app/deliver-webhooks.js';
import type { Services } from '../../src/app/services.js';
import { webhookUrlGuard } from '../../src/adapters/webhooks/url-guard.js';
import { apiClient } from '../support/http.js';
import { usingReceiver } from '../support/receiver.js';
import { startTestServer, usingTestServer } from '../support/test-server.js';
import { deliveriesOf, newPayment, subscribe, webhookEnv } from './fixtures.js';

// The production default: WEBHOOK_ALLOW_PRIVATE_URLS off. Registration is what is under test here, so the dispatcher is
// off: the public addresses it accepts below (93.184.215.14, 2606:4700:4700::1111) are never sent to from a test.
const { server: strict, api } = usingTestServer({ env: { WEBHOOK_DISPATCHER: 'off' } });
const receiver = usingReceiver();

describe('registration refuses URLs that could reach inside (WEBHOOK_ALLOW_PRIVATE_URLS off)', () => {
  const port = () => receiver.port;
  it.each([
    ['loopback', () => `https://127.0.0.1:${port()}/hook`],
    ['loopback by name', () => `https://localhost:${port()}/hook`],
    ['loopback in decimal', () => `https://2130706433:${port()}/hook`],
    ['loopback elsewhere in 127/8', () => `https://127.8.9.10:${port()}/hook`],
    ['10/8', () => 'https://10.0.0.1/hook'],
    ['172.16/12', () => 'https://172.16.0.1/hook'],
    ['172.16/12 upper end', () => 'https://172.31.255.254/hook'],
    ['192.168/16', () => 'https://192.168.1.10/hook'],
    ['cloud metadata', () => 'https://169.254.169.254/latest/meta-data/'],
    ['link-local', () => 'https://169.254.1.1/hook'],
    ['CGNAT 100.64/10', () => 'https://100.64.0.1/hook'],
    ['unspecified', () => `https://0.0.0.0:${port()}/hook`],
    ['multicast', () => 'https://224.0.0.1/hook'],
    ['reserved', () => 'https://240.0.0.1/hook'],
    ['documentation range', () => 'https://192.0.2.10/hook'],
    ['IPv6 loopback', () => `https://[::1]:${port()}/hook`],
    ['IPv6 unique-local', () => 'https://[fc00::1]/hook'],
    ['IPv6 unique-local (AWS metadata)', () => 'https://[fd00:ec2::254]/hook'],
    ['IPv6 link-local', () => 'https://[fe80::1]/hook'],
    ['IPv6 unspecified', () => 'https://[::]/hook'],
    ['IPv4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${port()}/hook`],
    ['IPv4-mapped IPv6 private', () => 'https://[::ffff:10.0.0.1]/hook'],
    ['IPv4-mapped IPv6 metadata', () => 'https://[::ffff:169.254.169.254]/hook'],
    ['NAT64 of a private address', () => 'https://[64:ff9b::a00:1]/hook'],
    ['http scheme', () => 'http://93.184.215.14/hook'],
    ['http scheme on loopback', () => `http://127.0.0.1:${port()}/hook`],
    ['another scheme', () => 'ftp://93.184.215.14/hook'],
    ['not a URL', () => 'not-a-url'],
    ['a relative URL', () => '/hooks/promptpay'],
    ['an empty string', () => ''],
    ['a host that does not resolve', () => 'https://payments.does-not-exist.invalid/hook'],
  ])('answers 422 invalid_url for %s, sending nothing', async (_what, urlOf) => {
    const before = receiver.connections();
    const res = await api.post('/Thai/v1/webhooks', { url: urlOf(), events: ['payment.succeeded'] });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'invalid_url', type: 'validation_error', param: 'url' });
    expect(receiver.connections()).toBe(before);
  });

  it.each([
    ['plain http', 'http://93.184.215.14/hook'],
    ['a private address', 'https://192.168.1.10/hook'],
  ])('tells a developer refused for %s how local development gets through', async (_what, url) => {
    const res = await api.post('/Thai/v1/webhooks', { url, events: ['payment.succeeded'] });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true');
  });

  it('registers nothing when it refuses', async () => {
    expect((await api.get('/Thai/v1/webhooks')).body.total).toBe(0);
  });

  it.each(['https://93.184.215.14/hooks/promptpay', 'https://[2606:4700:4700::1111]/hook'])('accepts the public address %s', async (url) => {
    const merchant = apiClient(strict.url, await strict.merchant());
    const res = await merchant.post('/Thai/v1/webhooks', { url, events: ['refund.failed'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ url, status: 'active' });
  });
});

describe('the same check at every delivery', () => {
  it('refuses to deliver to a URL that no longer passes, and records why', async () => {
    // Registered where private URLs are allowed; the check at delivery time is the production one.
    const lax = await startTestServer({ env: { ...webhookEnv, WEBHOOK_DISPATCHER: 'off' } });
    try {
      const merchant = apiClient(lax.url, await lax.merchant());
      const hook = await subscribe(merchant, receiver, '/inside', ['payment.pending']);
      await newPayment(merchant);
      const services: Services = lax.running.runtime.services;
      const strictServices: Services = { ...services, webhooks: { ...services.webhooks, urlGuard: webhookUrlGuard({ allowPrivate: false }) } };
      expect(await deliverDueWebhooks(strictServices)).toBe(1);
      const [delivery] = await deliveriesOf(merchant, hook.webhookId);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_status: null });
      expect(delivery.last_error).toMatch(/must use https/);
      expect(receiver.at('/inside')).toEqual([]);

      // The lax deployment's own check lets the retry through.
      expect(await deliverDueWebhooks(services)).toBe(1);
      expect((await deliveriesOf(merchant, hook.webhookId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(receiver.at('/inside')).toHaveLength(1);
      expect(receiver.at('/inside')[0]?.verified).toBe(true);
    } finally {
      await lax.stop();
    }
  });
});
