/**
 * fast-check generators of hostile HTTP requests for every operation of the API: wrong methods, malformed and
 * random bodies, huge and deeply nested JSON, odd unicode, NUL characters, `__proto__` keys, wrong content types
 * and encodings, invalid Idempotency-Keys, odd queries, headers and path ids. A request is generated as a small
 * description; `materialize` builds its bytes when it is sent, so huge bodies are never all held at once.
 */
import fc from 'fast-check';

export interface Known {
  apiKey: string;
  otherApiKey: string;
  paymentIds: string[];
  refundIds: string[];
  qrCodeIds: string[];
  webhookIds: string[];
  otherPaymentId: string;
}

export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object' | 'metadata' }
  | { kind: 'huge'; size: number; where: 'metadata' | 'reference' | 'array' | 'keys' }
  | { kind: 'proto'; base: unknown; where: 'top' | 'metadata' | 'constructor' };

export interface HostileRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: BodySpec;
}

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on lone surrogates). */
const pct = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

const weighted = <T>(...pairs: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> => fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));

/** Strings that break things: NUL, lone surrogates, RTL and zero-width marks, U+FFFE, line separators, emoji. */
const oddUnicode = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\ud83d',
  'x\udc00y',
  '\u202e\u200f',
  '\u200b\u200d\ufeff',
  '\ufffe\uffff',
  '\u2028\u2029',
  '👩‍👩‍👧‍👦',
  'ก่ข้ค๊ง๋',
  'e\u0301\u0301\u0301\u0301',
  '\u0085\u00a0',
  '\\u0000',
  '%00',
  "'; DROP TABLE payments; --",
  '${{7*7}}',
  '../../etc/passwd',
);

const anyString = weighted<string>(
  [4, fc.string({ maxLength: 40 })],
  [3, fc.string({ unit: 'binary', maxLength: 40 })],
  [3, oddUnicode],
  [1, fc.tuple(fc.string({ maxLength: 5 }), oddUnicode, fc.string({ unit: 'binary', maxLength: 5 })).map((parts) => parts.join(''))],
  [1, fc.integer({ min: 100, max: 5_000 }).map((n) => 'x'.repeat(n))],
);

const oddNumber = fc.constantFrom(0, -0, -1, 1.5, 99, 100, 200_000_000, 200_000_001, 2 ** 31, 2 ** 53 + 1, -(2 ** 53), 1e308, 1e-7, Number.MAX_SAFE_INTEGER);

const weird: fc.Arbitrary<unknown> = weighted<unknown>(
  [3, fc.jsonValue({ maxDepth: 3 })],
  [3, anyString],
  [2, oddNumber],
  [1, fc.constantFrom(null, true, false, [], {}, '', ' ', '15000', 'THB', '1e3', 'null')],
);

const field = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> => weighted<unknown>([6, valid], [2, weird]);

const metadataKey = weighted<string>(
  [5, fc.string({ maxLength: 12 })],
  [2, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '$where', '')],
  [1, oddUnicode],
);
const metadata = weighted<unknown>(
  [6, fc.dictionary(metadataKey, field(fc.string({ maxLength: 30 })), { maxKeys: 8 })],
  [1, fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 4 }), { minKeys: 45, maxKeys: 60 })],
  [1, weird],
);

const amount = weighted<number>([4, fc.integer({ min: 100, max: 200_000_000 })], [2, oddNumber], [1, fc.integer()]);
const currency = fc.constantFrom('THB', 'THB', 'THB', 'thb', 'USD', 'THB ', '฿', '');
const idempotencyKeyValue = weighted<string>(
  [5, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'k'))],
  [1, fc.constantFrom('', ' ', 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(4000), Buffer.from('ключ-é', 'utf8').toString('latin1'), 'k\u00ff\u00e9')],
);

/** Only loopback, private or literal hosts and non-URLs: registration must never look up or reach the outside. */
const webhookUrl = weighted<unknown>(
  [
    4,
    fc.constantFrom(
      'http://127.0.0.1:9/hook',
      'https://127.0.0.1/hook',
      'http://[::1]:9/x',
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest',
      'https://0.0.0.0/',
      'http://localhost:9/',
      'https://[::ffff:127.0.0.1]/',
    ),
  ],
  [
    2,
    fc.constantFrom(
      'not a url',
      'ftp://127.0.0.1/x',
      'javascript:alert(1)',
      '//127.0.0.1/x',
      'https://',
      'http://127.0.0.1:99999/',
      'file:///etc/passwd',
      'data:text/plain,hi',
      '',
    ),
  ],
  [1, weird],
);
const eventKinds = fc.constantFrom(
  'payment.pending',
  'payment.succeeded',
  'payment.failed',
  'refund.completed',
  'refund.failed',
  'withdrawal.processed',
  'PAYMENT.SUCCEEDED',
  'payment.*',
  '',
);
const secret = weighted<unknown>(
  [3, fc.integer({ min: 0, max: 80 }).map((n) => `whsec_${Buffer.alloc(n, 7).toString('base64')}`)],
  [1, fc.constantFrom('whsec_', 'whsec_!!!!', 'sk_test_x', 'whsec_' + 'A'.repeat(500))],
  [1, weird],
);

/** A plausible body for each operation, each field sometimes replaced by something else, sometimes an extra key. */
function bodyFields(op: string, ids: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  const shapes: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
    qr: {
      amount: field(amount),
      currency: field(currency),
      reference: field(fc.string({ maxLength: 40 })),
      expiry_minutes: field(fc.integer({ min: -2, max: 1500 })),
      client_name: field(anyString),
      client_bank_name: field(anyString),
      client_bank_account: field(anyString),
      metadata,
      idempotency_key: field(idempotencyKeyValue),
    },
    card: {
      token_id: field(fc.constantFrom('tok_visa', 'tok_mastercard', 'tok_insufficient_funds', 'tok_declined', 'tok_unknown', 'tok_')),
      amount: field(amount),
      currency: field(currency),
      description: field(anyString),
      metadata,
      idempotency_key: field(idempotencyKeyValue),
    },
    refund: { payment_id: field(ids), amount: field(amount), reason: field(anyString), idempotency_key: field(idempotencyKeyValue) },
    webhook: { url: webhookUrl, events: field(fc.array(eventKinds, { maxLength: 6 })), secret, idempotency_key: field(idempotencyKeyValue) },
    payer: { client_name: field(anyString), client_bank_name: field(anyString), client_bank_account: field(anyString) },
  };
  const shape = shapes[op] ?? {};
  return fc
    .tuple(fc.record(shape, { requiredKeys: [] }), fc.option(fc.tuple(metadataKey, weird), { freq: 5 }))
    .map(([record, extra]) => (extra ? { ...record, [extra[0]]: extra[1] } : record));
}

function bodySpec(op: string | null, ids: fc.Arbitrary<string>): fc.Arbitrary<BodySpec> {
  const base = op ? bodyFields(op, ids) : fc.constant({});
  return weighted<BodySpec>(
    [op ? 12 : 2, base.map((value) => ({ kind: 'json' as const, value }))],
    [3, fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json' as const, value }))],
    [2, fc.constant({ kind: 'none' as const })],
    [
      2,
      fc
        .constantFrom(
          '',
          '{',
          '{"amount":',
          '{"amount": 15000,}',
          "{'amount': 1}",
          'NaN',
          '{"a":1}{"b":2}',
          'null',
          '"abc"',
          '15000',
          '[]',
          '\ufeff{"amount":15000,"currency":"THB"}',
          '{"amount":1e999,"currency":"THB"}',
          '{"amount":15000,"amount":16000,"currency":"THB"}',
          '{"a":"\\ud800"}',
          '{"a":"\\u0000"}',
          '{"\\u0000":1}',
          'amount=15000&currency=THB',
          '<xml/>',
        )
        .map((text) => ({ kind: 'text' as const, text })),
    ],
    [1, fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'bytes' as const, bytes }))],
    [
      1,
      fc
        .record({ depth: fc.constantFrom(64, 500, 5_000, 50_000, 200_000), shape: fc.constantFrom('array', 'object', 'metadata') })
        .map((d) => ({ kind: 'deep' as const, ...d })),
    ],
    [
      1,
      fc
        .record({ size: fc.constantFrom(10_000, 300_000, 1_040_000, 1_100_000, 3_000_000), where: fc.constantFrom('metadata', 'reference', 'array', 'keys') })
        .map((h) => ({ kind: 'huge' as const, ...h })),
    ],
    [2, fc.record({ base, where: fc.constantFrom('top', 'metadata', 'constructor') }).map((p) => ({ kind: 'proto' as const, ...p }))],
  );
}

interface Operation {
  name: string;
  method: string;
  path: (ids: Ids) => fc.Arbitrary<string>;
  body: string | null;
  query?: 'list' | 'image';
  auth?: false;
}

interface Ids {
  payment: fc.Arbitrary<string>;
  refund: fc.Arbitrary<string>;
  qr: fc.Arbitrary<string>;
  webhook: fc.Arbitrary<string>;
}

const BASES = ['/Thai/v1', '/v1'];
const api = (suffix: (ids: Ids) => fc.Arbitrary<string>) => (ids: Ids) => fc.tuple(fc.constantFrom(...BASES), suffix(ids)).map(([b, s]) => `${b}${s}`);
const fixed = (path: string) => () => fc.constant(path);

const OPERATIONS: Operation[] = [
  { name: 'createQrCode', method: 'POST', path: api(fixed('/qr-codes')), body: 'qr' },
  { name: 'createQrCode(legacy)', method: 'POST', path: fixed('/Thai/qr-codes'), body: 'qr' },
  { name: 'getQrCodeImage', method: 'GET', path: (ids) => ids.qr.map((id) => `/Thai/qr-codes/${id}/image`), body: null, query: 'image', auth: false },
  { name: 'listPayments', method: 'GET', path: api(fixed('/payments')), body: null, query: 'list' },
  { name: 'createCardPayment', method: 'POST', path: api(fixed('/payments')), body: 'card' },
  { name: 'getPayment', method: 'GET', path: api((ids) => ids.payment.map((id) => `/payments/${id}`)), body: null },
  { name: 'succeedTestPayment', method: 'POST', path: api((ids) => ids.payment.map((id) => `/test/payments/${id}/succeed`)), body: 'payer' },
  { name: 'failTestPayment', method: 'POST', path: api((ids) => ids.payment.map((id) => `/test/payments/${id}/fail`)), body: null },
  { name: 'expireTestPayment', method: 'POST', path: api((ids) => ids.payment.map((id) => `/test/payments/${id}/expire`)), body: null },
  { name: 'createRefund', method: 'POST', path: api(fixed('/refunds')), body: 'refund' },
  { name: 'getRefund', method: 'GET', path: api((ids) => ids.refund.map((id) => `/refunds/${id}`)), body: null },
  { name: 'listTransactions', method: 'GET', path: api(fixed('/transactions')), body: null, query: 'list' },
  { name: 'createWebhook', method: 'POST', path: api(fixed('/webhooks')), body: 'webhook' },
  { name: 'listWebhooks', method: 'GET', path: api(fixed('/webhooks')), body: null, query: 'list' },
  { name: 'getWebhook', method: 'GET', path: api((ids) => ids.webhook.map((id) => `/webhooks/${id}`)), body: null },
  { name: 'deleteWebhook', method: 'DELETE', path: api((ids) => ids.webhook.map((id) => `/webhooks/${id}`)), body: null },
  { name: 'getWebhookSecret', method: 'GET', path: api((ids) => ids.webhook.map((id) => `/webhooks/${id}/secret`)), body: null },
  { name: 'listWebhookDeliveries', method: 'GET', path: api((ids) => ids.webhook.map((id) => `/webhooks/${id}/deliveries`)), body: null, query: 'list' },
  { name: 'health', method: 'GET', path: () => fc.constantFrom('/healthz', '/readyz'), body: null, auth: false },
  {
    name: 'unknownRoute',
    method: 'GET',
    path: () =>
      fc.constantFrom(
        '/',
        '/Thai',
        '/Thai/v1',
        '/Thai/v2/payments',
        '/v1/payments/',
        '/v1//payments',
        '/V1/PAYMENTS',
        '/Thai/v1/payments/../webhooks',
        '/favicon.ico',
        '/Thai/v1/qr-codes/x',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/Thai/v1/transactions;x=1',
      ),
    body: null,
  },
];

/** A path segment for an id: a real one mostly, else another merchant's, random, unicode, huge, or bad escapes. */
function idArb(real: string[], other: string[], prefix: string): fc.Arbitrary<string> {
  return weighted<string>(
    [6, fc.constantFrom(...real)],
    [1, fc.constantFrom(...other)],
    [2, fc.string({ maxLength: 30 }).map((s) => pct(`${prefix}${s}`))],
    [1, oddUnicode.map((s) => pct(s))],
    [
      1,
      fc.constantFrom(
        '%ZZ',
        '%',
        '%00',
        '%C3%28',
        '%FF%FE',
        '..',
        '.',
        '%2F',
        'x'.repeat(5_000),
        `${prefix}${'a'.repeat(300)}`,
        '%F0%9F%98%80',
        '__proto__',
        'constructor',
        'null',
        '0',
      ),
    ],
  );
}

const listValue = (name: string): fc.Arbitrary<string> => {
  const valid: Record<string, fc.Arbitrary<string>> = {
    limit: fc.constantFrom('1', '20', '100', '0', '101', '-1', '1.5', '1e2', ' 5', '0x10', '', 'abc', '99999999999999999999'),
    offset: fc.constantFrom('0', '10', '-1', '500000', '9007199254740993', '1e21', '', 'x'),
    status: fc.constantFrom('pending', 'succeeded', 'failed', 'expired', 'refunded', 'PENDING', '', 'x'),
    type: fc.constantFrom('payment', 'refund', 'failed', 'withdrawal', ''),
    start_date: fc.constantFrom(
      '2026-01-01',
      '2026-02-30',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00+07:00',
      '0000-01-01',
      '9999-12-31',
      '2026-13-01',
      'yesterday',
      '1700000000',
      '2026-01-01T25:00:00Z',
      '',
    ),
    end_date: fc.constantFrom('2026-12-31', '2025-01-01', '2026-12-31T23:59:59.999999999Z', '275760-09-13', ''),
    format: fc.constantFrom('png', 'svg', 'SVG', 'gif', '', 'png svg'),
    size: fc.constantFrom('200', '300', '1000', '199', '1001', '250.5', '1e3', '', '-300', '00300'),
  };
  return weighted<string>([5, valid[name] ?? fc.string({ maxLength: 10 })], [1, anyString.map((s) => s.slice(0, 300))]);
};

function queryArb(kind: Operation['query']): fc.Arbitrary<string> {
  const names = kind === 'image' ? ['format', 'size'] : kind === 'list' ? ['limit', 'offset', 'status', 'type', 'start_date', 'end_date'] : ['limit'];
  const pair = weighted<[string, string]>(
    [6, fc.constantFrom(...names).chain((name) => listValue(name).map((value): [string, string] => [name, value]))],
    [
      1,
      fc.tuple(fc.constantFrom('__proto__', 'constructor[prototype][x]', 'limit[]', 'status[$ne]', 'a[b][c]', 'expand', '', 'q'), fc.string({ maxLength: 8 })),
    ],
  );
  const encoded = fc
    .array(pair, { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${pct(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${pct(v)}`).join('&'));
  return weighted<string>(
    [4, fc.constant('')],
    [6, encoded],
    [
      1,
      fc.constantFrom(
        'limit=1&limit=2',
        'limit',
        '&&&',
        '=',
        'limit=%ZZ',
        'status=%00',
        'limit=' + '9'.repeat(5_000),
        'x=' + 'y'.repeat(20_000),
        'offset=1%00',
        'start_date=2026-01-01%00',
      ),
    ],
  );
}

const latin1Value = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

function headersArb(known: Known, op: Operation, hasBody: boolean): fc.Arbitrary<Record<string, string>> {
  const auth = weighted<string | null>(
    [op.auth === false ? 2 : 16, fc.constant(`Bearer ${known.apiKey}`)],
    [1, fc.constant(`Bearer ${known.otherApiKey}`)],
    [1, fc.constant(null)],
    [
      1,
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        `bearer ${known.apiKey}`,
        `Bearer ${known.apiKey.toUpperCase()}`,
        `Bearer ${known.apiKey}x`,
        'Bearer sk_test_' + 'a'.repeat(300),
        'Basic dXNlcjpwYXNz',
        `Bearer  ${known.apiKey}`,
        'Bearer sk_live_abc',
        'Bearer sk_test_é',
      ),
    ],
    [1, latin1Value],
  );
  const contentType = weighted<string | null>(
    [14, fc.constant('application/json')],
    [1, fc.constant(null)],
    [
      3,
      fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json; charset=nope',
        'text/plain',
        'text/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/merge-patch+json',
        'application/vnd.api+json',
        'application/xml',
        '',
        'application/json;;;',
        '*/*',
        'application/json, text/plain',
        'APPLICATION/JSON',
      ),
    ],
  );
  return fc
    .record({
      auth,
      contentType: hasBody ? contentType : weighted<string | null>([6, fc.constant(null)], [1, contentType]),
      idem: weighted<string | null>([5, fc.constant(null)], [2, idempotencyKeyValue]),
      encoding: weighted<string | null>([14, fc.constant(null)], [1, fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip')]),
      accept: weighted<string | null>([8, fc.constant(null)], [1, fc.constantFrom('text/html', 'application/xml', '*/*', 'image/png', '')]),
      extra: fc.option(
        fc.tuple(
          fc.constantFrom(
            'x-http-method-override',
            'x-forwarded-for',
            'x-request-id',
            'request-id',
            'cookie',
            'origin',
            'x-api-key',
            'idempotent-replayed',
            'expect-ct',
            'x-' + 'h'.repeat(200),
          ),
          latin1Value,
        ),
        { freq: 4 },
      ),
    })
    .map((h) => {
      const headers: Record<string, string> = {};
      if (h.auth !== null) headers.authorization = h.auth;
      if (h.contentType !== null) headers['content-type'] = h.contentType;
      if (h.idem !== null) headers['idempotency-key'] = h.idem;
      if (h.encoding !== null) headers['content-encoding'] = h.encoding;
      if (h.accept !== null) headers.accept = h.accept;
      if (h.extra) headers[h.extra[0]] = h.extra[1];
      return headers;
    });
}

export function hostileRequests(known: Known): fc.Arbitrary<HostileRequest> {
  const ids: Ids = {
    payment: idArb(known.paymentIds, [known.otherPaymentId], 'pay_'),
    refund: idArb(known.refundIds, [known.otherPaymentId], 'rfd_'),
    qr: idArb(known.qrCodeIds, ['qr_00000000000000000000000000'], 'qr_'),
    webhook: idArb(known.webhookIds, ['wh_0'], 'wh_'),
  };
  const method = (own: string) => weighted<string>([12, fc.constant(own)], [1, fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS')]);
  return fc.constantFrom(...OPERATIONS).chain((op) =>
    fc
      .record({
        method: method(op.method),
        path: op.path(ids),
        query: queryArb(op.query),
        body:
          op.body || op.method === 'POST'
            ? bodySpec(op.body, ids.payment)
            : weighted<BodySpec>([8, fc.constant({ kind: 'none' as const })], [1, bodySpec(null, ids.payment)]),
      })
      .chain((r) =>
        headersArb(known, op, r.body.kind !== 'none').map(
          (headers): HostileRequest => ({
            operation: op.name,
            method: r.method,
            path: `${r.path}${r.query ? `?${r.query}` : ''}`,
            headers,
            body: r.body,
          }),
        ),
      ),
  );
}

/** The bytes of a body description. */
export function materialize(body: BodySpec): Buffer | null {
  switch (body.kind) {
    case 'none':
      return null;
    case 'json':
      return Buffer.from(JSON.stringify(body.value) ?? 'null');
    case 'text':
      return Buffer.from(body.text);
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'deep': {
      const open = body.shape === 'array' ? '[' : '{"a":';
      const close = body.shape === 'array' ? ']' : '}';
      const nested = `${open.repeat(body.depth)}1${close.repeat(body.depth)}`;
      return Buffer.from(body.shape === 'metadata' ? `{"amount":15000,"currency":"THB","metadata":{"k":${nested}}}` : nested);
    }
    case 'huge': {
      const n = body.size;
      if (body.where === 'metadata') return Buffer.from(JSON.stringify({ amount: 15000, currency: 'THB', metadata: { blob: 'x'.repeat(n) } }));
      if (body.where === 'reference') return Buffer.from(JSON.stringify({ amount: 15000, currency: 'THB', reference: 'r'.repeat(n) }));
      if (body.where === 'array') return Buffer.from(`[${'1,'.repeat(Math.floor(n / 2))}1]`);
      const keys = Array.from({ length: Math.floor(n / 12) }, (_, i) => `"k${i}":1`).join(',');
      return Buffer.from(`{"amount":15000,"currency":"THB","metadata":{${keys}}}`);
    }
    case 'proto': {
      const inner = JSON.stringify(body.base ?? {});
      const rest = inner.startsWith('{') && inner.length > 2 ? `,${inner.slice(1)}` : '}';
      if (body.where === 'top') return Buffer.from(`{"__proto__":{"amount":100,"currency":"THB","isAdmin":true}${rest}`);
      if (body.where === 'constructor') return Buffer.from(`{"constructor":{"prototype":{"polluted":true}}${rest}`);
      return Buffer.from(`{"amount":15000,"currency":"THB","metadata":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"x":1}}}}`);
    }
  }
}

/** One line that says what was sent, short enough for a report. */
export function describe(request: HostileRequest, bytes: Buffer | null): string {
  const path = request.path.length > 160 ? `${request.path.slice(0, 160)}…(${request.path.length} chars)` : request.path;
  const headers = Object.entries(request.headers)
    .filter(([k]) => k !== 'authorization')
    .map(([k, v]) => `${k}: ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`)
    .join('; ');
  const auth = request.headers.authorization
    ? request.headers.authorization.length > 30
      ? 'auth: key'
      : `auth: ${JSON.stringify(request.headers.authorization)}`
    : 'no auth';
  const body =
    bytes === null
      ? 'no body'
      : bytes.length > 200
        ? `body ${request.body.kind} ${bytes.length} bytes: ${JSON.stringify(bytes.subarray(0, 120).toString())}…`
        : `body ${JSON.stringify(bytes.toString())}`;
  return `${request.method} ${path} [${request.operation}] ${auth}; ${headers}; ${body}`;
}
