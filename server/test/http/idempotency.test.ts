import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-20T08:00:00.000Z'));
const { server, api } = usingTestServer({ clock });

const order = { amount: 25000, currency: 'THB', reference: 'IDEM-1' };
const countPayments = async (client = api) => (await client.get('/Thai/v1/payments?limit=1')).body.total as number;

describe('idempotency', () => {
  it('replays the original response byte for byte and creates nothing new', async () => {
    const before = await countPayments();
    const first = await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-replay' });
    const again = await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-replay' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    expect(await countPayments()).toBe(before + 1);
  });

  it('treats the body idempotency_key like the header, and any path of the operation alike', async () => {
    const first = await api.post('/Thai/v1/qr-codes', { ...order, idempotency_key: 'key-body' });
    const viaHeader = await api.post('/v1/qr-codes', order, { idempotencyKey: 'key-body' });
    const legacy = await api.post('/Thai/qr-codes', order, { idempotencyKey: 'key-body' });
    expect(viaHeader.text).toBe(first.text);
    expect(legacy.text).toBe(first.text);
  });

  it('refuses a header and body key that differ, and keys that are empty or too long', async () => {
    const differ = await api.post('/Thai/v1/qr-codes', { ...order, idempotency_key: 'a' }, { idempotencyKey: 'b' });
    expect(differ.status).toBe(400);
    const tooLong = await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'x'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
    expect((await api.post('/Thai/v1/qr-codes', { ...order, idempotency_key: '' })).status).toBe(400);
    expect((await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'x'.repeat(255) })).status).toBe(200);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body', async () => {
    await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-reused' });
    const res = await api.post('/Thai/v1/qr-codes', { ...order, amount: 25001 }, { idempotencyKey: 'key-reused' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'idempotency_key_reused', type: 'idempotency_error' });
  });

  it('compares bodies canonically: key order does not matter', async () => {
    const first = await api.post('/Thai/v1/qr-codes', { currency: 'THB', amount: 25000, metadata: { a: 1, b: 2 } }, { idempotencyKey: 'key-canon' });
    const again = await api.post('/Thai/v1/qr-codes', { metadata: { b: 2, a: 1 }, amount: 25000, currency: 'THB' }, { idempotencyKey: 'key-canon' });
    expect(again.text).toBe(first.text);
  });

  it('scopes keys to the merchant', async () => {
    const other = apiClient(server.url, await server.merchant());
    const mine = await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-shared' });
    const theirs = await other.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-shared' });
    expect(theirs.status).toBe(200);
    expect(theirs.body.payment_id).not.toBe(mine.body.payment_id);
  });

  it('stores 422 results (with their request_id) and does not store 400 or 401', async () => {
    const invalid = await api.post('/Thai/v1/qr-codes', { ...order, amount: 1 }, { idempotencyKey: 'key-422' });
    const replay = await api.post('/Thai/v1/qr-codes', { ...order, amount: 1 }, { idempotencyKey: 'key-422' });
    expect(replay.status).toBe(422);
    expect(replay.text).toBe(invalid.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const schemaError = await api.post('/Thai/v1/qr-codes', { ...order, amount: 'x' }, { idempotencyKey: 'key-400' });
    expect(schemaError.status).toBe(400);
    expect((await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-400' })).status).toBe(200);
  });

  it('lets a key be used again for a new request after 24 hours', async () => {
    const first = await api.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-day' });
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await api.post('/Thai/v1/qr-codes', { ...order, amount: 30000 }, { idempotencyKey: 'key-day' });
    expect(later.status).toBe(200);
    expect(later.body.payment_id).not.toBe(first.body.payment_id);
  });

  it('20 simultaneous requests with one key make exactly one payment', async () => {
    const merchant = apiClient(server.url, await server.merchant());
    const results = await Promise.all(Array.from({ length: 20 }, () => merchant.post('/Thai/v1/qr-codes', order, { idempotencyKey: 'key-race' })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results) {
      if (r.status !== 200) expect(r.body.error.code).toBe('idempotency_key_in_use');
    }
    expect(new Set(ok.map((r) => r.body.payment_id)).size).toBe(1);
    expect(await countPayments(merchant)).toBe(1);
    expect((await merchant.get('/Thai/v1/transactions')).body.total).toBe(1);
  });

  it('replays a declined card payment (402) without charging again', async () => {
    const first = await api.post('/v1/payments', { token_id: 'tok_declined', amount: 10000, currency: 'THB' }, { idempotencyKey: 'key-402' });
    const again = await api.post('/v1/payments', { token_id: 'tok_declined', amount: 10000, currency: 'THB' }, { idempotencyKey: 'key-402' });
    expect(first.status).toBe(402);
    expect(again.text).toBe(first.text);
  });
});
