import { parse, validate } from 'promptparse';
import type { Knex } from 'knex';
import { describe, expect, it, vi } from 'vitest';
import { apiClient } from '../support/http.js';
import { manualClock, usingTestServer } from '../support/test-server.js';

// One request's statements are counted below: no background job writes meanwhile, and the clock stands still so a
// key looked up stays fresh however slow the machine is.
const { server, api } = usingTestServer({ backgroundJobs: false, clock: manualClock() });

const order = { amount: 150000, currency: 'THB', reference: 'ORDER-1001' };

/** Every SQL text sent on the database connections while `act` runs, through knex or around it. */
async function recordingStatements<T>(knex: Knex, act: () => Promise<T>): Promise<string[] & { result: T }> {
  const statements: string[] = [];
  const patched: { connection: { query: (...args: unknown[]) => unknown }; query: (...args: unknown[]) => unknown }[] = [];
  const acquire = knex.client.acquireConnection.bind(knex.client);
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- knex types acquireConnection as returning any; it returns a promise
  const spy = vi.spyOn(knex.client, 'acquireConnection').mockImplementation(async () => {
    const connection = await acquire();
    const { query } = connection;
    patched.push({ connection, query });
    // pg takes a config object or a text, PGlite a text.
    connection.query = (first: string | { text: string }, ...rest: unknown[]) => {
      statements.push(typeof first === 'string' ? first : first.text);
      return query.call(connection, first, ...rest);
    };
    return connection;
  });
  try {
    return Object.assign(statements, { result: await act() });
  } finally {
    spy.mockRestore();
    for (const { connection, query } of patched.reverse()) connection.query = query;
  }
}

describe('POST /Thai/v1/qr-codes', () => {
  it('creates a QR code and its pending payment', async () => {
    const res = await api.post('/Thai/v1/qr-codes', { ...order, metadata: { order_id: 'A-1' }, client_name: 'Somchai' });
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const qr = res.body;
    expect(qr).toMatchObject({
      amount: 150000,
      currency: 'THB',
      reference: 'ORDER-1001',
      status: 'pending',
      metadata: { order_id: 'A-1' },
      client_name: 'Somchai',
      client_bank_name: null,
    });
    expect(qr.qr_code_id).toMatch(/^qr_[0-9a-f]{32}$/);
    expect(qr.payment_id).toMatch(/^pay_/);
    expect(qr.qr_image_url).toBe(`${server.url}/Thai/qr-codes/${qr.qr_code_id}/image`);
    expect(new Date(qr.expires_at).getTime() - new Date(qr.created_at).getTime()).toBe(15 * 60_000);

    const payment = await api.get(`/Thai/v1/payments/${qr.payment_id}`);
    expect(payment.status).toBe(200);
    expect(payment.body).toMatchObject({
      payment_id: qr.payment_id,
      qr_code_id: qr.qr_code_id,
      status: 'pending',
      amount: 150000,
      refunded_amount: 0,
      card: null,
      metadata: { order_id: 'A-1' },
    });
  });

  it('puts a PromptPay payload in qr_data that an independent parser accepts, checksum included', async () => {
    const { body } = await api.post('/Thai/v1/qr-codes', order);
    const parsed = parse(body.qr_data, true);
    expect(parsed).not.toBeNull();
    expect(parsed!.getTagValue('54')).toBe('1500.00');
    expect(parsed!.getTagValue('53')).toBe('764');
    expect(parsed!.getTagValue('58')).toBe('TH');
    expect(body.qr_data.startsWith('000201010212')).toBe(true);
  });

  it('names a PromptPay proxy no bank can hold for a test merchant, unless the operator gave it a PromptPay id of its own', async () => {
    // The default test merchant: created, as by `merchants create` without --promptpay-id, with no account of its own.
    const { body } = await api.post('/Thai/v1/qr-codes', order);
    expect(parse(body.qr_data, true)!.getTagValue('29', '01')).toBe('0066000000000');
    expect(validate.anyId(body.qr_data)).toEqual({ type: 'MSISDN', target: '0000000000', amount: 1500 });

    const own = apiClient(server.url, await server.merchant({ account: { kind: 'promptpay_id', id: '0891234567' } }));
    const given = await own.post('/Thai/v1/qr-codes', order);
    expect(validate.anyId(given.body.qr_data)).toEqual({ type: 'MSISDN', target: '0891234567', amount: 1500 });
  });

  it('is served under /v1 and the legacy /Thai/qr-codes as well', async () => {
    for (const path of ['/v1/qr-codes', '/Thai/qr-codes']) {
      const res = await api.post(path, order);
      expect(res.status, path).toBe(200);
      expect(res.body.status).toBe('pending');
    }
  });

  it('honours expiry_minutes', async () => {
    const { body } = await api.post('/Thai/v1/qr-codes', { ...order, expiry_minutes: 1440 });
    expect(new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()).toBe(1440 * 60_000);
  });

  it("keeps a description of up to 500 characters as the payment's description, and refuses a longer one", async () => {
    const described = await api.post('/Thai/v1/qr-codes', { ...order, description: 'โต๊ะ 7 กาแฟ 2 แก้ว' });
    expect(described.status, described.text).toBe(200);
    expect((await api.get(`/Thai/v1/payments/${described.body.payment_id}`)).body.description).toBe('โต๊ะ 7 กาแฟ 2 แก้ว');
    const plain = await api.post('/Thai/v1/qr-codes', order);
    expect((await api.get(`/Thai/v1/payments/${plain.body.payment_id}`)).body.description).toBeNull();
    expect((await api.post('/Thai/v1/qr-codes', { ...order, description: 'x'.repeat(500) })).status).toBe(200);
    const tooLong = await api.post('/Thai/v1/qr-codes', { ...order, description: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.param).toBe('description');
  });

  it.each([
    [{ ...order, amount: 99 }, 422, 'invalid_amount'],
    [{ ...order, amount: 200_000_001 }, 422, 'invalid_amount'],
    [{ ...order, amount: 100 }, 200, undefined],
    [{ ...order, amount: 200_000_000 }, 200, undefined],
    [{ ...order, currency: 'USD' }, 422, 'invalid_currency'],
    [{ ...order, amount: 15.5 }, 400, 'invalid_request'],
    [{ ...order, amount: '150000' }, 400, 'invalid_request'],
    [{ amount: 150000 }, 400, 'invalid_request'],
    [{ ...order, currency: 764 }, 400, 'invalid_request'],
    [{ ...order, reference: 'x'.repeat(36) }, 400, 'invalid_request'],
    [{ ...order, expiry_minutes: 0 }, 400, 'invalid_request'],
    [{ ...order, expiry_minutes: 1441 }, 400, 'invalid_request'],
    [{ ...order, metadata: 'not an object' }, 400, 'invalid_request'],
    [{ ...order, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 400, 'invalid_request'],
    [{ ...order, metadata: { blob: 'x'.repeat(9000) } }, 400, 'invalid_request'],
    [{ ...order, surprise: true }, 400, 'invalid_request'],
  ])('answers %j with %i %s', async (body, status, code) => {
    const res = await api.post('/Thai/v1/qr-codes', body);
    expect(res.status).toBe(status);
    if (code) {
      expect(res.body.error).toMatchObject({ code, type: 'validation_error', request_id: res.headers.get('request-id') });
      expect(typeof res.body.error.message).toBe('string');
    }
  });

  it.each([[undefined], ['one-statement-key']])(
    'writes the QR code, payment (its transaction read from it) and event in one statement (Idempotency-Key %s)',
    async (idempotencyKey) => {
      const { knex } = server.running.runtime.db;
      await api.get('/Thai/v1/transactions?limit=1'); // the merchant's key is known from here on
      const statements = await recordingStatements(knex, () => api.post('/Thai/v1/qr-codes', order, { idempotencyKey }));
      const res = statements.result;
      expect(res.status).toBe(200);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^WITH gate AS/);
      const paymentId: string = res.body.payment_id;
      const written = await Promise.all([knex('payments').where({ id: paymentId }), knex('qr_codes').where({ payment_id: paymentId })]);
      expect(written.map((rows) => rows.length)).toEqual([1, 1]);
      const listed: { payment_id: string }[] = (await api.get('/Thai/v1/transactions?limit=100')).body.transactions;
      expect(listed.find((t) => t.payment_id === paymentId)).toMatchObject({
        payment_id: paymentId,
        refund_id: null,
        type: 'payment',
        status: 'pending',
        amount: order.amount,
      });
      const events = await knex('events').whereRaw("payload::jsonb -> 'data' ->> 'payment_id' = ?", [res.body.payment_id]).select('kind');
      expect(events).toEqual([{ kind: 'payment.pending' }]);
    },
  );

  it('keeps __proto__ metadata keys as plain data', async () => {
    const res = await api.post('/Thai/v1/qr-codes', undefined, {
      rawBody: '{"amount":15000,"currency":"THB","metadata":{"__proto__":{"admin":true},"constructor":"x"}}',
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"__proto__":{"admin":true}');
    const payment = await api.get(`/Thai/v1/payments/${res.body.payment_id}`);
    expect(payment.text).toContain('"__proto__":{"admin":true}');
  });

  it('refuses a request without a valid key with 401', async () => {
    for (const authorization of [undefined, 'Bearer sk_test_unknown', 'Basic abc', 'Bearer ']) {
      const res = await api.post('/Thai/v1/qr-codes', order, { apiKey: '', headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'authentication_failed', type: 'authentication_error' });
    }
  });

  it('answers malformed JSON with 400 invalid_json and bodies over 1 MiB with 413', async () => {
    const malformed = await api.post('/Thai/v1/qr-codes', undefined, { rawBody: '{"amount": 15000,' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_json');
    const huge = await api.post('/Thai/v1/qr-codes', undefined, { rawBody: JSON.stringify({ ...order, metadata: { blob: 'x'.repeat(1_100_000) } }) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });
});
