import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/adapters/webhooks/address-policy.js';
import { webhookUrlGuard, type HostResolver } from '../../src/adapters/webhooks/url-guard.js';

// Public addresses here (93.184.215.14, 8.8.8.8, 224.0.0.1, ...) are only classified or refused by the guard: no
// dispatcher runs in this file and no connection to any of them is ever made.
describe('classifyAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:93.184.215.14'])('%s is public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:192.168.1.1',
  ])('%s is private (allowed only for development)', (address) => {
    expect(classifyAddress(address)).toBe('private');
  });

  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '169.254.169.254',
    '169.254.170.2',
    '100.100.100.200',
    '168.63.129.16',
    '192.0.0.192',
    'fd00:ec2::254',
    '::ffff:169.254.169.254',
    '::',
    'ff02::1',
    '2001:db8::1',
    '64:ff9b::a00:1',
    '2002:c000:0204::1',
    '2001::1',
    'a000::1',
    'not-an-address',
    '',
  ])('%s is never a webhook destination', (address) => {
    expect(classifyAddress(address)).toBe('forbidden');
  });
});

describe('webhookUrlGuard', () => {
  const resolverOf =
    (answers: Record<string, string[]>): HostResolver =>
    async (host) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const guard = (answers: Record<string, string[]>, allowPrivate = false) => webhookUrlGuard({ allowPrivate, resolve: resolverOf(answers) });

  it('returns the checked address, so the sender connects exactly there', async () => {
    await expect(guard({ 'shop.example': ['93.184.215.14', '2606:4700::1'] }).assertDeliverable('https://shop.example/hook')).resolves.toEqual({
      url: 'https://shop.example/hook',
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses a host when any one of its addresses is not public', async () => {
    await expect(guard({ 'mixed.example': ['93.184.215.14', '10.0.0.5'] }).assertDeliverable('https://mixed.example/hook')).rejects.toMatchObject({
      code: 'invalid_url',
    });
    await expect(guard({ 'inside.example': ['::ffff:127.0.0.1'] }).assertDeliverable('https://inside.example/hook')).rejects.toMatchObject({
      code: 'invalid_url',
    });
  });

  it('refuses a host that does not resolve, or whose lookup fails or hangs', async () => {
    await expect(guard({}).assertDeliverable('https://nowhere.example/hook')).rejects.toMatchObject({ code: 'invalid_url' });
    const failing = webhookUrlGuard({ allowPrivate: false, resolve: () => Promise.reject(Object.assign(new Error('boom'), { code: 'ESERVFAIL' })) });
    await expect(failing.assertDeliverable('https://broken.example/')).rejects.toMatchObject({ code: 'invalid_url' });
    const hanging = webhookUrlGuard({ allowPrivate: false, resolve: () => new Promise(() => undefined), lookupTimeoutMs: 50 });
    await expect(hanging.assertDeliverable('https://slow.example/')).rejects.toMatchObject({ code: 'invalid_url' });
  });

  it('allows http and private addresses only when told to, and never metadata or multicast', async () => {
    const lax = guard({ 'metadata.internal': ['169.254.169.254'] }, true);
    await expect(lax.assertDeliverable('http://127.0.0.1:8080/hook')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(lax.assertDeliverable('http://[::1]:8080/hook')).resolves.toMatchObject({ address: '::1', family: 6 });
    await expect(lax.assertDeliverable('https://10.0.0.1/hook')).resolves.toMatchObject({ address: '10.0.0.1' });
    await expect(lax.assertDeliverable('http://metadata.internal/computeMetadata/v1/')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(lax.assertDeliverable('http://169.254.169.254/')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(lax.assertDeliverable('http://224.0.0.1/')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(lax.assertDeliverable('ftp://127.0.0.1/')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(guard({}).assertDeliverable('http://93.184.215.14/hook')).rejects.toMatchObject({ code: 'invalid_url' });
  });

  it('uses the system resolver by default: localhost is loopback, .invalid does not resolve', async () => {
    const strict = webhookUrlGuard({ allowPrivate: false });
    await expect(strict.assertDeliverable('https://localhost/hook')).rejects.toMatchObject({
      code: 'invalid_url',
      message: expect.stringMatching(/not public/),
    });
    await expect(strict.assertDeliverable('https://no-such-host.invalid/hook')).rejects.toMatchObject({
      code: 'invalid_url',
      message: expect.stringMatching(/does not resolve/),
    });
    await expect(webhookUrlGuard({ allowPrivate: true }).assertDeliverable('http://localhost:9/hook')).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });
});
