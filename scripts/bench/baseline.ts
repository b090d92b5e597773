/**
 * The bare ceilings of `npm run bench`: the least work a correct request can do here, independent of the server's
 * schema, behind two front doors (BASELINE_HTTP): `raw`, node:http and nothing else (the ceiling the bench judges
 * by), and `express`, the same work behind express and its JSON body parser. The API key is looked up (by SHA-256) in an in-memory map; the body is checked only for an
 * integer amount; POST /qr-codes writes the QR code, its payment, its transaction, its outbox event and (with an
 * Idempotency-Key) the idempotency record in ONE statement (a CTE, autocommit) into minimal tables of its own:
 * primary keys, one (merchant_id, created_at desc, id) index on payments and on transactions, no triggers.
 * GET /payments/:id is one indexed SELECT. Each statement is prepared once per connection (a named query). Started by
 * run.ts in a child process with DATABASE_URL (a scratch database of its own), PORT, API_KEY, MERCHANT_ID,
 * PROMPTPAY_ID and BASELINE_HTTP.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import pg from 'pg';
import { buildPromptPayPayload } from '../../server/src/domain/promptpay-payload.js';
import { randomIds } from '../../server/src/adapters/system/random-ids.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`baseline: ${name} is required`);
  return value;
};
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const merchants = new Map([[sha256(env('API_KEY')), { id: env('MERCHANT_ID'), promptPayId: env('PROMPTPAY_ID') }]]);
// Same pool size as the server's knex pool (database.ts: max 10).
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: Number(process.env.POOL_SIZE || 10) });

const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS bare;
CREATE TABLE IF NOT EXISTS bare.payments (
  id text PRIMARY KEY, merchant_id text NOT NULL, qr_code_id text, status text NOT NULL, amount integer NOT NULL,
  currency text NOT NULL, reference text, client_name text, client_bank_name text, client_bank_account text,
  metadata jsonb NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, expires_at timestamptz);
CREATE INDEX IF NOT EXISTS payments_by_merchant ON bare.payments (merchant_id, created_at DESC, id);
CREATE TABLE IF NOT EXISTS bare.qr_codes (
  id text PRIMARY KEY, merchant_id text NOT NULL, payment_id text NOT NULL, qr_data text NOT NULL,
  bank_reference text NOT NULL, expires_at timestamptz NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS bare.transactions (
  id text PRIMARY KEY, merchant_id text NOT NULL, payment_id text NOT NULL, type text NOT NULL, status text NOT NULL,
  amount integer NOT NULL, currency text NOT NULL, created_at timestamptz NOT NULL);
CREATE INDEX IF NOT EXISTS transactions_by_merchant ON bare.transactions (merchant_id, created_at DESC, id);
CREATE TABLE IF NOT EXISTS bare.events (id text PRIMARY KEY, merchant_id text NOT NULL, kind text NOT NULL, payload text NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS bare.idempotency_keys (
  merchant_id text NOT NULL, key text NOT NULL, response_status integer NOT NULL, response_body text NOT NULL,
  created_at timestamptz NOT NULL, PRIMARY KEY (merchant_id, key));`;

/** The rows of one QR code, each selected from `gate`: with a key, nothing is written if the key is taken. */
const rowsFrom = (gate: string): string => `
WITH gate AS (${gate}), p AS (
  INSERT INTO bare.payments (id, merchant_id, qr_code_id, status, amount, currency, reference, client_name, client_bank_name,
                             client_bank_account, metadata, created_at, updated_at, expires_at)
  SELECT $1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, $11, $11, $12 FROM gate
), q AS (
  INSERT INTO bare.qr_codes (id, merchant_id, payment_id, qr_data, bank_reference, expires_at, created_at)
  SELECT $3, $2, $1, $13, $14, $12, $11 FROM gate
), t AS (
  INSERT INTO bare.transactions (id, merchant_id, payment_id, type, status, amount, currency, created_at)
  SELECT $15, $2, $1, 'payment', 'pending', $4, $5, $11 FROM gate
), e AS (
  INSERT INTO bare.events (id, merchant_id, kind, payload, created_at) SELECT $16, $2, 'payment.pending', $17, $11 FROM gate
)
SELECT count(*)::int AS written FROM gate`;
const INSERT_QR = rowsFrom('SELECT 1');
const INSERT_KEYED_QR = rowsFrom(`INSERT INTO bare.idempotency_keys (merchant_id, key, response_status, response_body, created_at)
  VALUES ($2, $18, 200, $19, $11) ON CONFLICT (merchant_id, key) DO NOTHING RETURNING 1`);

interface Answer {
  status: number;
  json: string;
}
interface Merchant {
  id: string;
  promptPayId: string;
}
interface QrBody {
  amount: unknown;
  currency?: string;
  reference?: string;
  expiry_minutes?: number;
  client_name?: string;
  client_bank_name?: string;
  client_bank_account?: string;
  metadata?: object;
}

const UNAUTHORIZED: Answer = { status: 401, json: '{"error":{"code":"authentication_failed"}}' };
const merchantOf = (authorization: string | undefined): Merchant | undefined => merchants.get(sha256(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? ''));

async function createQrCode(merchant: Merchant, body: QrBody, key: string | undefined): Promise<Answer> {
  if (!Number.isInteger(body.amount)) return { status: 400, json: '{"error":{"code":"invalid_request","param":"amount"}}' };
  const amount = body.amount as number;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + (body.expiry_minutes ?? 15) * 60_000);
  const paymentId = randomIds.next('payment');
  const qrCodeId = randomIds.next('qrCode');
  const eventId = randomIds.next('event');
  const reference = randomIds.bankReference();
  const qrData = buildPromptPayPayload({ account: { kind: 'promptpay_id', id: merchant.promptPayId }, amountSatang: amount, reference });
  const metadata = body.metadata ?? {};
  const answer = JSON.stringify({
    qr_code_id: qrCodeId,
    qr_data: qrData,
    amount,
    currency: body.currency ?? 'THB',
    reference: body.reference ?? null,
    expires_at: expiresAt.toISOString(),
    created_at: now.toISOString(),
    payment_id: paymentId,
    status: 'pending',
    metadata,
  });
  const event = JSON.stringify({
    id: eventId,
    event: 'payment.pending',
    timestamp: now.toISOString(),
    data: { payment_id: paymentId, status: 'pending', amount },
  });
  const values = [
    paymentId,
    merchant.id,
    qrCodeId,
    amount,
    body.currency ?? 'THB',
    body.reference ?? null,
    body.client_name ?? null,
    body.client_bank_name ?? null,
    body.client_bank_account ?? null,
    JSON.stringify(metadata),
    now,
    expiresAt,
    qrData,
    reference,
    randomIds.next('transaction'),
    eventId,
    event,
  ];
  const { rows } = await pool.query(
    key === undefined ? { name: 'qr', text: INSERT_QR, values } : { name: 'qr_keyed', text: INSERT_KEYED_QR, values: [...values, key, answer] },
  );
  if (rows[0].written === 0) return { status: 409, json: '{"error":{"code":"idempotency_key_in_use"}}' };
  return { status: 200, json: answer };
}

async function retrievePayment(merchant: Merchant, id: string): Promise<Answer> {
  const { rows } = await pool.query({ name: 'payment', text: 'SELECT * FROM bare.payments WHERE id = $1 AND merchant_id = $2', values: [id, merchant.id] });
  if (!rows[0]) return { status: 404, json: '{"error":{"code":"payment_not_found"}}' };
  return { status: 200, json: JSON.stringify(rows[0]) };
}

/** express: its router and JSON body parser in front of the same work. */
function expressApp() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());
  const send = (res: express.Response, answer: Answer) => void res.status(answer.status).type('application/json').send(answer.json);
  app.post('/qr-codes', (req, res, next) => {
    const merchant = merchantOf(req.get('authorization'));
    if (!merchant) return send(res, UNAUTHORIZED);
    createQrCode(merchant, req.body as QrBody, req.get('idempotency-key')).then((answer) => send(res, answer), next);
  });
  app.get('/payments/:id', (req, res, next) => {
    const merchant = merchantOf(req.get('authorization'));
    if (!merchant) return send(res, UNAUTHORIZED);
    retrievePayment(merchant, req.params.id).then((answer) => send(res, answer), next);
  });
  app.get('/readyz', (_req, res) => send(res, { status: 200, json: '{"status":"ready"}' }));
  return createServer(app);
}

/** node:http alone: the closest a Node service gets to PostgreSQL on this machine. */
function rawServer() {
  const send = (res: ServerResponse, answer: Answer) => {
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.json) });
    res.end(answer.json);
  };
  const readBody = async (req: IncomingMessage): Promise<QrBody> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as QrBody;
  };
  const route = async (req: IncomingMessage): Promise<Answer> => {
    const url = req.url ?? '';
    if (req.method === 'GET' && url === '/readyz') return { status: 200, json: '{"status":"ready"}' };
    const merchant = merchantOf(req.headers.authorization);
    if (!merchant) return UNAUTHORIZED;
    const key = req.headers['idempotency-key'];
    if (req.method === 'POST' && url === '/qr-codes') return createQrCode(merchant, await readBody(req), typeof key === 'string' ? key : undefined);
    if (req.method === 'GET' && url.startsWith('/payments/')) return retrievePayment(merchant, decodeURIComponent(url.slice('/payments/'.length)));
    return { status: 404, json: '{"error":{"code":"not_found"}}' };
  };
  return createServer((req, res) => {
    route(req).then(
      (answer) => send(res, answer),
      () => send(res, { status: 500, json: '{"error":{"code":"internal_error"}}' }),
    );
  });
}

await pool.query(SCHEMA);
const server = (process.env.BASELINE_HTTP === 'express' ? expressApp() : rawServer()).listen(Number(env('PORT')), '127.0.0.1');
const stop = () => server.close(() => void pool.end().finally(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// If run.ts dies without cleaning up, do not outlive it.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();
