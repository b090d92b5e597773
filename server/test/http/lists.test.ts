import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

const clock = manualClock(new Date('2026-11-18T10:00:00.000Z'));
const ids: Record<string, string> = {};

const { server, api } = usingTestServer({ clock });
beforeAll(async () => {
  // Day 1: a paid and refunded payment; day 2: a failed one; day 3: two pending ones at the same instant.
  const paid = await api.post('/Thai/v1/qr-codes', { amount: 10000, currency: 'THB' });
  await api.post(`/Thai/v1/test/payments/${paid.body.payment_id}/succeed`);
  await api.post('/v1/refunds', { payment_id: paid.body.payment_id, amount: 4000 });
  ids.paid = paid.body.payment_id;
  clock.advance(24 * 3600_000);
  const failed = await api.post('/Thai/v1/qr-codes', { amount: 20000, currency: 'THB' });
  await api.post(`/Thai/v1/test/payments/${failed.body.payment_id}/fail`);
  ids.failed = failed.body.payment_id;
  clock.advance(24 * 3600_000);
  ids.pendingA = (await api.post('/Thai/v1/qr-codes', { amount: 30000, currency: 'THB' })).body.payment_id;
  ids.pendingB = (await api.post('/Thai/v1/qr-codes', { amount: 40000, currency: 'THB' })).body.payment_id;
});

describe('GET /Thai/v1/transactions', () => {
  it('lists newest first, ties broken by id descending, with total/limit/offset', async () => {
    const res = await api.get('/Thai/v1/transactions');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, limit: 20, offset: 0 });
    const list = res.body.transactions as { transaction_id: string; created_at: string }[];
    const sorted = [...list].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.transaction_id.localeCompare(a.transaction_id));
    expect(list).toEqual(sorted);
  });

  it('pages without gaps or repeats', async () => {
    const all = (await api.get('/Thai/v1/transactions?limit=100')).body.transactions.map((t: { transaction_id: string }) => t.transaction_id);
    const pages = [];
    for (let offset = 0; offset < 5; offset += 2) pages.push(...(await api.get(`/Thai/v1/transactions?limit=2&offset=${offset}`)).body.transactions);
    expect(pages.map((t: { transaction_id: string }) => t.transaction_id)).toEqual(all);
    const beyond = await api.get('/Thai/v1/transactions?offset=50');
    expect(beyond.body).toMatchObject({ transactions: [], total: 5, offset: 50 });
  });

  it.each([
    ['status=pending', 2],
    ['status=succeeded', 2], // the partly refunded payment and its refund
    ['status=refunded', 0],
    ['status=failed', 1],
    ['type=refund', 1],
    ['type=payment', 3],
    ['type=failed', 1],
    ['start_date=2026-11-19', 3],
    ['end_date=2026-11-18', 2],
    ['start_date=2026-11-19&end_date=2026-11-19', 1],
    ['start_date=2026-11-20T10:00:00.000Z', 2],
    ['end_date=2026-11-20T09:59:59.999Z', 3],
  ])('filters %s to %i', async (query, total) => {
    const res = await api.get(`/Thai/v1/transactions?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(total);
    expect(res.body.transactions).toHaveLength(total);
  });

  it('shows refunds as negative amounts', async () => {
    const res = await api.get('/Thai/v1/transactions?type=refund');
    expect(res.body.transactions[0]).toMatchObject({ payment_id: ids.paid, amount: -4000, status: 'succeeded' });
    expect(res.body.transactions[0].refund_id).toMatch(/^rfd_/);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=abc',
    'offset=-1',
    'status=done',
    'type=withdrawal',
    'start_date=yesterday',
    'end_date=2026-13-01',
    'start_date=2026-11-20&end_date=2026-11-19',
    'colour=red',
    'limit=1&limit=2',
  ])('answers %s with 400 invalid_parameters', async (query) => {
    const res = await api.get(`/Thai/v1/transactions?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameters', type: 'validation_error' });
  });
});

describe('GET /Thai/v1/payments', () => {
  it('lists payments with filters and the same paging rules', async () => {
    const res = await api.get('/Thai/v1/payments?limit=2');
    expect(res.body).toMatchObject({ total: 4, limit: 2, offset: 0 });
    expect(res.body.payments.map((p: { payment_id: string }) => p.payment_id).sort()).toEqual([ids.pendingA, ids.pendingB].sort());
    expect((await api.get('/Thai/v1/payments?status=succeeded')).body.total).toBe(1);
    expect((await api.get('/Thai/v1/payments?status=failed')).body.payments[0].payment_id).toBe(ids.failed);
    expect((await api.get('/Thai/v1/payments?start_date=2026-11-19&end_date=2026-11-19')).body.total).toBe(1);
    expect((await api.get('/Thai/v1/payments?status=unknown')).body.error.code).toBe('invalid_parameters');
  });

  it('never shows another merchant anything', async () => {
    const other = apiClient(server.url, await server.merchant());
    expect((await other.get('/Thai/v1/payments')).body.total).toBe(0);
    expect((await other.get('/Thai/v1/transactions')).body.total).toBe(0);
    const theirs = await other.get(`/Thai/v1/payments/${ids.paid}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('payment_not_found');
    expect((await other.post(`/Thai/v1/test/payments/${ids.pendingA}/succeed`)).status).toBe(404);
    expect((await other.post('/v1/refunds', { payment_id: ids.paid })).status).toBe(404);
  });
});
