import { describe, expect, it } from 'vitest';
import { PaymentQrClient, type PaymentQrClientOptions } from '../src/index.js';

const make = (options: unknown) => () => new PaymentQrClient(options as PaymentQrClientOptions);

describe('PaymentQrClient options', () => {
  it('needs an API key and the base URL of the service, and guesses neither', () => {
    const client = new PaymentQrClient({ apiKey: 'sk_test_abc', baseUrl: 'https://payment-qr.example.com' });
    expect(client.qrCodes.imageUrl('qr_1')).toBe('https://payment-qr.example.com/Thai/qr-codes/qr_1/image');
    expect(new PaymentQrClient({ apiKey: 'sk_live_x-Y_z', baseUrl: 'http://127.0.0.1:8080' })).toBeInstanceOf(PaymentQrClient);
    expect(new PaymentQrClient({ apiKey: 'rk_test_abc', baseUrl: 'http://127.0.0.1:8080' })).toBeInstanceOf(PaymentQrClient);
    expect(new PaymentQrClient({ apiKey: 'rk_live_x-Y_z', baseUrl: 'http://127.0.0.1:8080' })).toBeInstanceOf(PaymentQrClient);
    expect(make({ apiKey: 'sk_test_abc' })).toThrow(
      new TypeError("PaymentQrClient option baseUrl is required: where the service runs, e.g. 'https://payment-qr.example.com' (the SDK adds /Thai/v1)."),
    );
    // An unset environment variable is the usual way to pass none.
    expect(make({ apiKey: 'sk_test_abc', baseUrl: undefined })).toThrow(/baseUrl is required/);
    expect(make({ apiKey: 'sk_test_abc', baseUrl: '' })).toThrow(/baseUrl is required/);
  });

  it('refuses unknown options, naming them', () => {
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'https://payment-qr.example.com', maxNetworkRetries: 3 })).toThrow(
      new TypeError("Unknown PaymentQrClient option 'maxNetworkRetries'. Known options: apiKey, baseUrl, timeout, maxRetries, fetch."),
    );
  });

  it('refuses a missing or malformed key without echoing it', () => {
    const baseUrl = 'https://payment-qr.example.com';
    expect(make({ baseUrl })).toThrow(/apiKey is required/);
    expect(make({ apiKey: 'pk_test_public', baseUrl })).toThrow(TypeError);
    expect(make({ apiKey: 'pk_test_public', baseUrl })).not.toThrow(/pk_test_public/);
    expect(make({ apiKey: 'sk_test_', baseUrl })).toThrow(/sk_test_\.\.\. or sk_live_/);
    expect(make({ apiKey: 'rk_prod_abc', baseUrl })).toThrow(/rk_test_\.\.\. \/ rk_live_/);
  });

  it('refuses a base URL that is not an origin the SDK can append /Thai/v1 to', () => {
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'localhost:3000' })).toThrow(/absolute http\(s\) URL|http or https/);
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'ftp://example.com' })).toThrow(/http or https/);
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'https://api.example.com/v1' })).toThrow(/adds \/Thai\/v1 itself/);
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'https://api.example.com/Thai/' })).toThrow(/adds \/Thai\/v1 itself/);
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'https://gw.example.com/payment-qr/Thai' })).toThrow(/adds \/Thai\/v1 itself/);
    expect(make({ apiKey: 'sk_test_abc', baseUrl: 'https://api.example.com?x=1' })).toThrow(/query/);
  });

  it('keeps a path prefix of the base URL (a gateway, a mock), also one ending in /v1', () => {
    const client = new PaymentQrClient({ apiKey: 'sk_test_abc', baseUrl: 'https://gw.example.com/payment-qr/' });
    expect(client.qrCodes.imageUrl('qr_1', { format: 'svg', size: 400 })).toBe(
      'https://gw.example.com/payment-qr/Thai/qr-codes/qr_1/image?format=svg&size=400',
    );
    const versioned = new PaymentQrClient({ apiKey: 'sk_test_abc', baseUrl: 'https://gw.example.com/payments/v1' });
    expect(versioned.qrCodes.imageUrl('qr_1')).toBe('https://gw.example.com/payments/v1/Thai/qr-codes/qr_1/image');
  });

  it('sends API calls under the prefix', async () => {
    const urls: string[] = [];
    const fetch = async (input: Request | URL | string) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return Response.json({ payment_id: 'pay_1' });
    };
    await new PaymentQrClient({ apiKey: 'sk_test_abc', baseUrl: 'http://127.0.0.1:4010/mock', fetch }).payments.retrieve('pay_1');
    expect(urls).toEqual(['http://127.0.0.1:4010/mock/Thai/v1/payments/pay_1']);
  });

  it('takes a base URL ending in /Thai/v1, as the contract writes its servers, as the API base itself', () => {
    for (const baseUrl of ['https://api.example.com/Thai/v1', 'https://gw.example.com/payment-qr/Thai/v1/']) {
      const client = new PaymentQrClient({ apiKey: 'sk_test_abc', baseUrl });
      expect(client.qrCodes.imageUrl('qr_1')).toBe(`${baseUrl.replace(/\/Thai\/v1\/?$/, '')}/Thai/qr-codes/qr_1/image`);
    }
  });

  it('refuses a time-out, retry count or fetch of the wrong kind', () => {
    const valid = { apiKey: 'sk_test_abc', baseUrl: 'https://payment-qr.example.com' };
    expect(make({ ...valid, timeout: 0 })).toThrow(/timeout/);
    expect(make({ ...valid, timeout: '5000' })).toThrow(/timeout/);
    expect(make({ ...valid, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(make({ ...valid, maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(make({ ...valid, fetch: 'fetch' })).toThrow(/fetch/);
    expect(make(undefined)).toThrow(/options object/);
  });

  it('escapes ids in the image URL', () => {
    const client = new PaymentQrClient({ apiKey: 'sk_test_abc', baseUrl: 'https://payment-qr.example.com' });
    expect(client.qrCodes.imageUrl('qr_1/../x')).toBe('https://payment-qr.example.com/Thai/qr-codes/qr_1%2F..%2Fx/image');
  });
});
