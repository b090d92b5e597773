import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { dashboardMember, nextCode, signIn } from '../support/dashboard.js';
import { apiClient } from '../support/http.js';
import { eventually } from '../support/receiver.js';
import { loggerInto } from '../support/log-lines.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

/**
 * TRUST_PROXY (DECISIONS, v1.3 "Behind a proxy"): the proxies whose X-Forwarded-For is believed. The test client, on
 * 127.0.0.1, plays the HTTPS proxy production puts in front: trusted by one server, not by the other. The forwarded
 * addresses are documentation addresses (RFC 5737), only ever written in a header.
 */
const clock = manualClock(new Date('2026-11-27T02:00:00Z'));
const logLines: Record<string, unknown>[] = [];

const AUTH_FAILURES = 5;
const { server: behindProxy } = usingTestServer({
  clock,
  env: { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', AUTH_FAILURE_LIMIT_PER_SECOND: String(AUTH_FAILURES) },
  logger: loggerInto(logLines),
});
// The proxy's address is not in its TRUST_PROXY: whatever X-Forwarded-For says is anyone's word.
const { server: untrusting } = usingTestServer({ clock, env: { TRUST_PROXY: '10.0.0.0/8' } });

const MINUTE = 60_000;
const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });

// Each sign-in checks a password (scrypt): 40 in a row take a while on a busy machine.
const MANY_SIGN_INS = { timeout: 240_000 };

describe('behind a proxy (TRUST_PROXY)', () => {
  it('counts sign-in failures per real client: 20 guesses from 20 forwarded addresses do not lock out an owner elsewhere', MANY_SIGN_INS, async () => {
    clock.advance(60 * MINUTE);
    const owner = await dashboardMember(behindProxy, { role: 'owner' });
    for (let i = 0; i < 20; i++) {
      const { response } = await signIn(
        behindProxy.url,
        { email: `made.up${i}@example.com`, password: 'guessing password', code: '000000' },
        forwardedFor(`203.0.113.${i + 1}`),
      );
      expect(response.status).toBe(401);
    }
    const owners = await signIn(
      behindProxy.url,
      { email: owner.email, password: owner.password, code: () => nextCode(clock, owner) },
      forwardedFor('198.51.100.7'),
    );
    expect(owners.response.status).toBe(303);
    const signedIn = (await behindProxy.auditEntries(owner.merchantId)).find((entry) => entry.action === 'sign_in')!;
    expect(signedIn.context.clientAddress).toBe('198.51.100.7'); // the audit log names the real client
    await eventually(
      () => logLines.some((line) => line.msg === 'request' && line.path === '/dashboard/login/code' && line.client === '198.51.100.7'),
      'the access log line',
    );

    // One real client guessing is still stopped at 20 (its forwarded address is its own), the proxy's hops before it ignored.
    for (let i = 0; i < 20; i++)
      await signIn(
        behindProxy.url,
        { email: `again${i}@example.com`, password: 'guessing password', code: '000000' },
        forwardedFor(`192.0.2.${i}, 203.0.113.99`),
      );
    const fromGuesser = await signIn(
      behindProxy.url,
      { email: owner.email, password: owner.password, code: () => nextCode(clock, owner) },
      forwardedFor('203.0.113.99'),
    );
    expect(fromGuesser.response.status).toBe(401);
  });

  it('ignores X-Forwarded-For from a peer it does not trust: every guess is the peer’s, and the peer is locked out', MANY_SIGN_INS, async () => {
    clock.advance(60 * MINUTE);
    const owner = await dashboardMember(untrusting, { role: 'owner' });
    for (let i = 0; i < 20; i++)
      await signIn(untrusting.url, { email: `made.up${i}@example.com`, password: 'guessing password', code: '000000' }, forwardedFor(`203.0.113.${i + 1}`));
    const owners = await signIn(
      untrusting.url,
      { email: owner.email, password: owner.password, code: () => nextCode(clock, owner) },
      forwardedFor('198.51.100.7'),
    );
    expect(owners.response.status).toBe(401);
    clock.advance(15 * MINUTE);
    const later = await signIn(
      untrusting.url,
      { email: owner.email, password: owner.password, code: () => nextCode(clock, owner) },
      forwardedFor('198.51.100.7'),
    );
    expect(later.response.status).toBe(303);
    const signedIn = (await untrusting.auditEntries(owner.merchantId)).find((entry) => entry.action === 'sign_in')!;
    expect(signedIn.context.clientAddress).toBe('127.0.0.1');
  });

  it('limits failed API authentications per real client, and audits a key’s use under the real client', async () => {
    clock.advance(60 * MINUTE);
    const guesser = apiClient(behindProxy.url, { apiKey: 'sk_test_not_a_key_at_all_000000000000' });
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_FAILURES; i++) statuses.push((await guesser.get('/Thai/v1/payments/pay_x', { headers: forwardedFor('203.0.113.50') })).status);
    expect(statuses).toEqual([...Array(AUTH_FAILURES).fill(401), 429]);
    expect((await guesser.get('/Thai/v1/payments/pay_x', { headers: forwardedFor('203.0.113.51') })).status).toBe(401); // another client

    const merchant = await behindProxy.merchant();
    const api = apiClient(behindProxy.url, merchant);
    const qr = await api.post('/Thai/v1/qr-codes', { amount: 10_000, currency: 'THB' }, { headers: forwardedFor('198.51.100.20') });
    expect(qr.status).toBe(200);
    expect((await api.post(`/Thai/v1/test/payments/${qr.body.payment_id}/succeed`, {}, { headers: forwardedFor('198.51.100.20') })).status).toBe(200);
    const [entry] = await behindProxy.auditEntries(merchant.id);
    expect(entry).toMatchObject({ action: 'test_payment_completed', context: { channel: 'api', clientAddress: '198.51.100.20' } });
  });

  it('reads TRUST_PROXY as a comma list of addresses and CIDR ranges, and refuses anything else naming the setting', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8' }).trustProxy.map(([range, bits]) => `${range.toString()}/${bits}`)).toEqual([
      '10.0.0.0/8',
      '127.0.0.1/32',
      '::1/128',
      'fd00::/8',
    ]);
    for (const wrong of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/2', '300.1.1.1', 'loopback'])
      expect(() => loadConfig({ TRUST_PROXY: wrong }), wrong).toThrow(/^TRUST_PROXY: /);
  });
});
