import { describe, expect, it } from 'vitest';
import { apiClient, expectEnvelope } from '../support/http.js';
import { startTestServer, usingTestServer } from '../support/test-server.js';

const { api } = usingTestServer();

describe('the error envelope everywhere', () => {
  it('unknown routes answer 404 route_not_found', async () => {
    expectEnvelope(await api.get('/Thai/v1/nothing-here'), 404, 'route_not_found');
    expectEnvelope(await api.get('/elsewhere'), 404, 'route_not_found');
  });

  it('wrong methods answer 405 method_not_allowed', async () => {
    expectEnvelope(await api.send('PUT', '/Thai/v1/qr-codes', {}), 405, 'method_not_allowed');
    expectEnvelope(await api.delete('/Thai/v1/transactions'), 405, 'method_not_allowed');
  });

  it('a non-JSON content type is a 400', async () => {
    const res = await api.post('/Thai/v1/qr-codes', undefined, { rawBody: 'amount=1', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('validation_error');
  });

  it('health and readiness answer', async () => {
    expect((await api.get('/healthz')).status).toBe(200);
    // On PostgreSQL it names the host taking writes (the one of DATABASE_URL here).
    const database = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : null;
    expect((await api.get('/readyz')).body).toEqual(
      database ? { status: 'ready', primary: `${database.hostname}:${database.port || '5432'}` } : { status: 'ready' },
    );
  });

  it('a database outage answers 503 service_unavailable and the process lives on', async () => {
    const scratch = await startTestServer();
    const client = apiClient(scratch.url, await scratch.merchant());
    await scratch.running.runtime.db.close();
    const res = await client.get('/Thai/v1/payments');
    expectEnvelope(res, 503, 'service_unavailable');
    expect(res.body.error.type).toBe('api_error');
    expectEnvelope(await client.get('/readyz', { apiKey: '' }), 503, 'service_unavailable');
    await scratch.stop();
  });
});
