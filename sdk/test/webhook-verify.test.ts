import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  PaymentQrClient,
  WebhookVerificationError,
  verifyWebhook,
  type PaymentEvent,
  type RefundEvent,
  type TestEvent,
  type WebhookEvent,
} from '../src/index.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const client = new PaymentQrClient({ apiKey: 'sk_test_receiver', baseUrl: 'https://payment-qr.example.com' });

const event: PaymentEvent = {
  id: 'evt_01JD3X9P2Q4R6S8T0V2W4X6Y8Z',
  event: 'payment.succeeded',
  data: {
    payment_id: 'pay_01JD3X7K9R5G8N2P4S6T8V0WXY',
    status: 'succeeded',
    amount: 150_000,
    currency: 'THB',
    reference: 'INV-2026-00042',
    metadata: { order_id: 'ORD-88213' },
  },
  timestamp: '2026-11-20T08:17:02.481Z',
};
const body = JSON.stringify(event);

/** Headers as the service sends them, signed with `signingSecret` at `at`. */
function signed(payload: string, { signingSecret = secret, at = new Date() }: { signingSecret?: string; at?: Date } = {}) {
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(signingSecret).sign(event.id, at, payload),
  };
}

/** The WebhookVerificationError that `verify` throws. */
function failure(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  return expect.fail('expected verify to throw');
}

describe('webhooks.verify', () => {
  it('returns the typed event of a genuine delivery', () => {
    const verified = client.webhooks.verify(body, signed(body), secret);
    expect(verified).toEqual(event);
    expectTypeOf(verified).toEqualTypeOf<WebhookEvent>();
    if (verified.event === 'refund.completed' || verified.event === 'refund.failed') {
      expectTypeOf(verified).toEqualTypeOf<RefundEvent>();
    } else if (verified.event.startsWith('withdrawal.')) {
      expectTypeOf(verified).toMatchTypeOf<WebhookEvent>();
    } else if (verified.event === 'webhook.test') {
      expectTypeOf(verified).toEqualTypeOf<TestEvent>();
    } else if (verified.event === 'payment.pending' || verified.event === 'payment.succeeded' || verified.event === 'payment.failed') {
      expectTypeOf(verified.data.payment_id).toBeString();
      expectTypeOf(verified.event).toEqualTypeOf<'payment.pending' | 'payment.succeeded' | 'payment.failed'>();
    }
  });

  it('accepts the raw body as a Buffer, headers in any case or as Headers, and several signatures', () => {
    const headers = signed(body);
    expect(verifyWebhook(Buffer.from(body), headers, secret)).toEqual(event);
    const mixedCase = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'Webhook-Signature': headers['webhook-signature'],
    };
    expect(verifyWebhook(body, mixedCase, secret)).toEqual(event);
    expect(verifyWebhook(body, new Headers(headers), secret)).toEqual(event);
    const rotated = { ...headers, 'webhook-signature': `v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= ${headers['webhook-signature']}` };
    expect(verifyWebhook(body, rotated, secret)).toEqual(event);
  });

  it('accepts either of two secrets while a secret is rotated, and neither after', () => {
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const stranger = `whsec_${randomBytes(32).toString('base64')}`;
    // During the window the service signs with both: a receiver holding either one, or both, accepts.
    const both = signed(body);
    both['webhook-signature'] = `${both['webhook-signature']} ${signed(body, { signingSecret: previous })['webhook-signature']}`;
    expect(client.webhooks.verify(body, both, [secret, previous])).toEqual(event);
    expect(client.webhooks.verify(body, both, previous)).toEqual(event);
    // After it, only the new secret signs; a receiver given both still accepts, in either order.
    expect(client.webhooks.verify(body, signed(body), [previous, secret])).toEqual(event);
    expect(client.webhooks.verify(body, signed(body, { signingSecret: previous }), [secret, previous])).toEqual(event);
    expect(failure(() => client.webhooks.verify(body, signed(body, { signingSecret: stranger }), [secret, previous])).reason).toBe('invalid_signature');
    expect(failure(() => client.webhooks.verify(body, signed(body), [secret, 'not-a-secret'])).reason).toBe('invalid_secret');
    expect(failure(() => client.webhooks.verify(body, signed(body), [])).reason).toBe('invalid_secret');
    const old = signed(body, { at: new Date(Date.now() - 10 * 60_000) });
    expect(failure(() => client.webhooks.verify(body, old, [secret, previous])).reason).toBe('timestamp_too_old');
  });

  it('refuses a tampered body', () => {
    const tampered = body.replace('150000', '1500000');
    expect(failure(() => client.webhooks.verify(tampered, signed(body), secret)).reason).toBe('invalid_signature');
  });

  it('refuses a delivery signed with another secret', () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const error = failure(() => client.webhooks.verify(body, signed(body, { signingSecret: other }), secret));
    expect(error.reason).toBe('invalid_signature');
    expect(error.message).toMatch(/No webhook-signature matches/);
  });

  it('refuses an old timestamp (replay) and one far in the future', () => {
    const old = signed(body, { at: new Date(Date.now() - 10 * 60_000) });
    expect(failure(() => client.webhooks.verify(body, old, secret)).reason).toBe('timestamp_too_old');
    const future = signed(body, { at: new Date(Date.now() + 10 * 60_000) });
    expect(failure(() => client.webhooks.verify(body, future, secret)).reason).toBe('timestamp_too_new');
    expect(failure(() => client.webhooks.verify(body, { ...signed(body), 'webhook-timestamp': 'yesterday' }, secret)).reason).toBe('invalid_timestamp');
  });

  it('refuses missing headers, a parsed body, a malformed secret and a signed body that is not an event', () => {
    const { 'webhook-signature': _dropped, ...unsigned } = signed(body);
    expect(failure(() => client.webhooks.verify(body, unsigned, secret)).reason).toBe('missing_headers');
    const parsed = failure(() => client.webhooks.verify(JSON.parse(body) as never, signed(body), secret));
    expect(parsed.reason).toBe('invalid_payload');
    expect(parsed.message).toMatch(/express\.raw/);
    expect(failure(() => client.webhooks.verify(body, signed(body), 'whsec_***')).reason).toBe('invalid_secret');
    expect(failure(() => client.webhooks.verify('[1,2]', signed('[1,2]'), secret)).reason).toBe('invalid_payload');
    expect(failure(() => client.webhooks.verify('not json', signed('not json'), secret)).reason).toBe('invalid_payload');
  });
});
