import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { contractPath, servedPaths, servedPathsJsonPath, servedPathsYamlPath, splitServerUrl, type OpenApiDocument } from '../scripts/served-paths.js';

const op = (operationId: string) => ({ operationId, responses: { '200': { description: 'OK' } } });

describe('servedPaths', () => {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 't', version: '1', description: 'The API.' },
    servers: [{ url: 'https://api.example.com/Thai/v1', description: 'canonical' }, { url: 'https://api.example.com/v1' }],
    paths: {
      '/payments': { parameters: [{ name: 'x', in: 'query' }], get: op('listPayments'), post: op('createPayment') },
      '/qr-codes/{id}/image': { servers: [{ url: 'https://api.example.com/Thai' }], get: op('getImage') },
      '/pay/{id}': { get: { ...op('checkoutPage'), servers: [{ url: 'https://api.example.com/Thai' }] }, post: op('postPay') },
      '/metrics': { get: op('metrics'), servers: [{ url: 'http://127.0.0.1:9464' }] },
    },
  };
  const served = servedPaths(document);

  it('writes each operation under every base its nearest servers give, grouped by base', () => {
    expect(Object.keys(served.paths ?? {})).toEqual([
      '/Thai/v1/payments',
      '/Thai/v1/pay/{id}',
      '/v1/payments',
      '/v1/pay/{id}',
      '/Thai/qr-codes/{id}/image',
      '/Thai/pay/{id}',
      '/metrics',
    ]);
    expect(Object.keys(served.paths?.['/Thai/v1/pay/{id}'] ?? {})).toEqual(['post']);
    expect(served.paths?.['/Thai/pay/{id}']?.get).toEqual(op('checkoutPage'));
    expect(served.paths?.['/v1/payments']?.parameters).toEqual([{ name: 'x', in: 'query' }]);
  });

  it('keeps only origins in servers, and a path of another origin keeps its own', () => {
    expect(served.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(served.paths?.['/metrics']?.servers).toEqual([{ url: 'http://127.0.0.1:9464' }]);
    expect(served.paths?.['/v1/payments']?.servers).toBeUndefined();
  });

  it('keeps the canonical operationId and gives each alias its own', () => {
    expect(served.paths?.['/Thai/v1/payments']?.get).toMatchObject({ operationId: 'listPayments' });
    expect(served.paths?.['/v1/payments']?.get).toMatchObject({ operationId: 'listPaymentsV1' });
  });

  it('refuses two operations on one served path and method', () => {
    const clash: OpenApiDocument = {
      servers: [{ url: '/Thai' }],
      paths: { '/v1/x': { get: op('a') }, '/x': { servers: [{ url: '/Thai/v1' }], get: op('b') } },
    };
    expect(() => servedPaths(clash)).toThrow(/GET \/Thai\/v1\/x is served twice/);
  });

  it('splits absolute, relative and templated server URLs', () => {
    expect(splitServerUrl('http://127.0.0.1:3000/Thai/v1/')).toEqual({ origin: 'http://127.0.0.1:3000', base: '/Thai/v1' });
    expect(splitServerUrl('/v1')).toEqual({ origin: '/', base: '/v1' });
    expect(splitServerUrl('https://{host}')).toEqual({ origin: 'https://{host}', base: '' });
  });
});

describe('the shipped served-paths contract', () => {
  const require = createRequire(import.meta.url);
  const expected = servedPaths(parse(readFileSync(contractPath, 'utf8')) as OpenApiDocument);

  it('is exactly what openapi.yaml generates, as YAML and as JSON, and the package exports both', () => {
    expect(require.resolve('@payment-qr/contract/openapi.served-paths.yaml')).toBe(servedPathsYamlPath);
    expect(require.resolve('@payment-qr/contract/openapi.served-paths.json')).toBe(servedPathsJsonPath);
    const stale = 'stale: run npm run generate -w @payment-qr/contract (never edit the generated file)';
    expect(parse(readFileSync(servedPathsYamlPath, 'utf8')), stale).toEqual(expected);
    expect(JSON.parse(readFileSync(servedPathsJsonPath, 'utf8')), stale).toEqual(expected);
  });

  it('serves every operation at its canonical base and the documented aliases', () => {
    const paths = Object.keys(expected.paths ?? {});
    expect(paths).toEqual(
      expect.arrayContaining(['/Thai/v1/payments/{payment_id}', '/v1/payments/{payment_id}', '/Thai/qr-codes', '/Thai/qr-codes/{qr_code_id}/image']),
    );
    expect(expected.servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
  });
});
