/**
 * The bare baseline of `npm run bench`: express + pg, no validation, no auth, no idempotency lock, no logging.
 * POST /qr-codes writes the rows the real server writes for one QR code (payment, qr_code, transaction, event and
 * the idempotency record) in ONE round trip: a single INSERT ... CTE statement (autocommit). GET /payments/:id reads
 * one row. Started by run.ts in a child process with DATABASE_URL, PORT, MERCHANT_ID, PROMPTPAY_ID.
 */
import { randomBytes, randomInt } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { buildPromptPayPayload } from '../../server/src/domain/promptpay-payload.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`baseline: ${name} is required`);
  return value;
};
const merchantId = env('MERCHANT_ID');
const promptPayId = env('PROMPTPAY_ID');
// Same pool size as the server's knex pool (database.ts: max 10).
const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: Number(process.env.POOL_SIZE || 10) });

const id = (prefix: string): string => `${prefix}_${randomBytes(16).toString('hex')}`;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const bankReference = (): string => Array.from({ length: 20 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

const INSERT_QR = `
WITH p AS (
  INSERT INTO payments (id, merchant_id, qr_code_id, status, amount, currency, reference, client_name, client_bank_name,
                        client_bank_account, metadata, refunded_amount, created_at, updated_at, expires_at)
  VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, 0, $11, $11, $12)
), q AS (
  INSERT INTO qr_codes (id, merchant_id, payment_id, qr_data, bank_reference, expires_at, created_at)
  VALUES ($3, $2, $1, $13, $14, $12, $11)
), t AS (
  INSERT INTO transactions (id, merchant_id, payment_id, type, status, amount, currency, created_at)
  VALUES ($15, $2, $1, 'payment', 'pending', $4, $5, $11)
), e AS (
  INSERT INTO events (id, merchant_id, kind, payload, created_at) VALUES ($16, $2, 'payment.pending', $17, $11)
), i AS (
  INSERT INTO idempotency_keys (merchant_id, key, fingerprint, response_status, response_body, created_at)
  VALUES ($2, $18, '', 200, $19, $11)
  ON CONFLICT (merchant_id, key) DO NOTHING
)
SELECT 1`;

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());

app.post('/qr-codes', async (req, res, next) => {
  try {
    const body = req.body as { amount: number; currency: string; reference?: string; expiry_minutes?: number; client_name?: string; client_bank_name?: string; client_bank_account?: string; metadata?: object };
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (body.expiry_minutes ?? 15) * 60_000);
    const paymentId = id('pay');
    const qrCodeId = id('qr');
    const eventId = id('evt');
    const reference = bankReference();
    const qrData = buildPromptPayPayload({ account: { kind: 'promptpay_id', id: promptPayId }, amountSatang: body.amount, reference });
    const answer = {
      qr_code_id: qrCodeId,
      qr_data: qrData,
      amount: body.amount,
      currency: body.currency,
      reference: body.reference ?? null,
      expires_at: expiresAt.toISOString(),
      created_at: now.toISOString(),
      payment_id: paymentId,
      status: 'pending',
      metadata: body.metadata ?? {},
    };
    const event = { id: eventId, event: 'payment.pending', timestamp: now.toISOString(), data: { payment_id: paymentId, status: 'pending', amount: body.amount } };
    const text = JSON.stringify(answer);
    await pool.query(INSERT_QR, [
      paymentId, merchantId, qrCodeId, body.amount, body.currency, body.reference ?? null, body.client_name ?? null,
      body.client_bank_name ?? null, body.client_bank_account ?? null, JSON.stringify(body.metadata ?? {}), now, expiresAt,
      qrData, reference, id('txn'), eventId, JSON.stringify(event), req.get('idempotency-key') ?? id('idem'), text,
    ]);
    res.type('application/json').send(text);
  } catch (error) {
    next(error);
  }
});

app.get('/payments/:id', async (req, res, next) => {
  try {
    const { rows } = await pool.query('SELECT * FROM payments WHERE id = $1 AND merchant_id = $2', [req.params.id, merchantId]);
    if (!rows[0]) return void res.status(404).json({ error: 'not found' });
    res.json(rows[0]);
  } catch (error) {
    next(error);
  }
});

app.get('/readyz', (_req, res) => void res.json({ status: 'ready' }));

const server = app.listen(Number(env('PORT')), '127.0.0.1');
const stop = () => server.close(() => void pool.end().finally(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// If run.ts dies without cleaning up, do not outlive it.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();
