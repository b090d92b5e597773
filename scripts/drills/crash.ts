/**
 * crash: SIGKILL the server in the middle of QR-generation load, restart it on the same port, and check that
 * - every request answered 200 has its payment, QR code, transaction, payment.pending event and idempotency record;
 * - nothing half-written exists (a payment without its transaction, event or QR code);
 * - replaying an acknowledged key after the restart answers the same payment;
 * - every acknowledged payment completion and withdrawal has its ledger entry, none is half-written, and the running
 *   totals equal the ledger's sum after the restarts (a second merchant completes payments and withdraws under the kills);
 * - every committed event is delivered, signed, after the restart (deliveries leased by the dead server are retried
 *   once their lease runs out: 2 x WEBHOOK_TIMEOUT_MS + WEBHOOK_LEASE_MARGIN_MS, here 2 x 1 s + 3 s).
 */
import { randomBytes } from 'node:crypto';
import { leaseMsFor } from '../../server/src/app/deliver-webhooks.js';
import { sleep, waitFor, type Drill } from './lib/harness.js';
import { startDrillReceiver } from './lib/receiver.js';
import { call, closedLoop, createTestMerchant, inspect, QR_BODY, registerWebhook, scratchDatabase, startServer, type ServiceProcess } from './lib/service.js';

const WEBHOOK_TIMEOUT_MS = 1_000;
/** A send cut by the kill is retried once its lease ends (the server's leaseMsFor, with WEBHOOK_LEASE_MARGIN_MS). */
const LEASE_MARGIN_MS = 3_000;
const LEASE_MS = leaseMsFor(WEBHOOK_TIMEOUT_MS, LEASE_MARGIN_MS);

export const crashDrill: Drill = {
  name: 'crash',
  summary: 'SIGKILL the server during QR-generation load, restart: no acknowledged write lost, every event delivered',
  timeLimitMs: (short) => (short ? 120_000 : 240_000),
  async run(ctx) {
    const cycles = ctx.short ? 1 : 3;
    const loadMs = ctx.short ? 3_000 : 5_000;
    const concurrency = ctx.short ? 8 : 16;
    const env = { WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS), WEBHOOK_LEASE_MARGIN_MS: String(LEASE_MARGIN_MS) };

    const db = await scratchDatabase(ctx);
    const merchant = await createTestMerchant(db.url);
    const receiver = await startDrillReceiver(ctx);
    let server: ServiceProcess = await startServer(ctx, { databaseUrl: db.url, env });
    const port = server.port;
    const webhook = await registerWebhook(server.base, merchant.apiKey, receiver.url);
    receiver.setSecret(webhook.secret);

    const run = randomBytes(3).toString('hex');
    const acknowledged = new Map<string, { paymentId: string; qrCodeId: string }>();
    const outcomes = new Map<string, number>();
    let stopped = false;
    const loop = closedLoop(
      concurrency,
      () => stopped,
      async (i) => {
        const key = `crash-${run}-${i}`;
        const reply = await call(server.base, 'POST', '/Thai/v1/qr-codes', {
          apiKey: merchant.apiKey,
          body: QR_BODY(key),
          idempotencyKey: key,
          timeoutMs: 10_000,
        });
        const label = reply.status === 0 ? reply.text : String(reply.status);
        outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
        if (reply.status === 200) acknowledged.set(key, { paymentId: reply.body.payment_id, qrCodeId: reply.body.qr_code_id });
        else await sleep(reply.status === 0 ? 50 : 10);
      },
    );

    // Ledger writes under the same kills: completions credit the balance, withdrawals debit it.
    const payer = await createTestMerchant(db.url, 'Crash ledger', { bankCode: '014', accountNumber: '1234567890', accountName: 'Crash ledger' });
    const credited: string[] = [];
    const withdrawn: string[] = [];
    const ledgerLoop = closedLoop(
      4,
      () => stopped,
      async (i) => {
        const key = `ledger-${run}-${i}`;
        const qr = await call(server.base, 'POST', '/Thai/v1/qr-codes', {
          apiKey: payer.apiKey,
          body: { amount: 1000, currency: 'THB' },
          idempotencyKey: key,
          timeoutMs: 10_000,
        });
        if (qr.status !== 200) return void (await sleep(50));
        const done = await call(server.base, 'POST', `/Thai/v1/test/payments/${qr.body.payment_id}/succeed`, {
          apiKey: payer.apiKey,
          idempotencyKey: `s-${key}`,
          timeoutMs: 10_000,
        });
        if (done.status === 200) credited.push(qr.body.payment_id);
        if (i % 3 !== 0) return;
        const w = await call(server.base, 'POST', '/Thai/v1/withdrawals', {
          apiKey: payer.apiKey,
          body: { amount: 500 },
          idempotencyKey: `w-${key}`,
          timeoutMs: 10_000,
        });
        if (w.status === 200) withdrawn.push(w.body.withdrawal_id);
      },
    );

    const restartMs: number[] = [];
    for (let cycle = 1; cycle <= cycles; cycle++) {
      await sleep(loadMs * (0.6 + Math.random() * 0.4));
      const before = acknowledged.size;
      await server.kill('SIGKILL');
      ctx.log(`cycle ${cycle}: SIGKILL after ${before} acknowledged QR codes`);
      await sleep(500);
      const started = Date.now();
      server = await startServer(ctx, { name: `server#${cycle + 1}`, databaseUrl: db.url, port, env });
      restartMs.push(Date.now() - started);
    }
    await sleep(loadMs / 2);
    stopped = true;
    const sent = await loop;
    const ledgerSent = await ledgerLoop;

    // Every acknowledged write, row by row.
    const pg = await inspect(ctx, db.url);
    const keys = [...acknowledged.keys()];
    const found = await pg.query<{ key: string; payment: boolean; qr: boolean; event: boolean }>(
      `SELECT k.key,
              EXISTS (SELECT 1 FROM payments p WHERE p.id = k.payment_id) AS payment,
              EXISTS (SELECT 1 FROM qr_codes q WHERE q.id = k.qr_code_id AND q.payment_id = k.payment_id) AS qr,
              EXISTS (SELECT 1 FROM events e WHERE e.kind = 'payment.pending' AND e.payload::jsonb #>> '{data,payment_id}' = k.payment_id) AS event
       FROM unnest($1::text[], $2::text[], $3::text[]) AS k(key, payment_id, qr_code_id)`,
      [keys, keys.map((k) => acknowledged.get(k)!.paymentId), keys.map((k) => acknowledged.get(k)!.qrCodeId)],
    );
    const idempotency = await pg.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE merchant_id = $1 AND key = ANY($2)', [merchant.id, keys]);
    const stored = new Set(idempotency.rows.map((r) => r.key));
    const lost = found.rows.filter((r) => !(r.payment && r.qr && r.event && stored.has(r.key)));
    ctx.figure(
      'requests sent',
      sent,
      Object.entries(Object.fromEntries(outcomes))
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
    );
    ctx.figure('server restarts: time to ready', restartMs.map((m) => `${m} ms`).join(', '));
    ctx.check('acknowledged (200) QR codes', acknowledged.size, acknowledged.size > 0, '> 0');
    ctx.check('acknowledged writes lost', lost.length, lost.length === 0, '0 (payment and so its transaction, QR code, event, idempotency record)');
    for (const r of lost.slice(0, 5)) ctx.note(`lost: key ${r.key} payment=${r.payment} qr=${r.qr} event=${r.event} idempotency=${stored.has(r.key)}`);

    const partial = await pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments p
       WHERE NOT EXISTS (SELECT 1 FROM qr_codes q WHERE q.payment_id = p.id)
          OR NOT EXISTS (SELECT 1 FROM events e WHERE e.payload::jsonb #>> '{data,payment_id}' = p.id)`,
    );
    ctx.check('half-written payments', partial.rows[0]!.n, partial.rows[0]!.n === 0, '0');
    const committed = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1', [merchant.id]);
    ctx.figure(
      'payments committed (incl. unacknowledged)',
      committed.rows[0]!.n,
      `${committed.rows[0]!.n - acknowledged.size} committed but cut off before the answer`,
    );

    // Every acknowledged credit and debit is in the ledger, once, and the running totals agree with it.
    const entries = await pg.query<{ source_id: string; type: string }>('SELECT source_id, type FROM balance_transactions WHERE merchant_id = $1', [payer.id]);
    const sources = new Set(entries.rows.map((e) => `${e.type}:${e.source_id}`));
    const lostEntries = [...credited.map((id) => `payment:${id}`), ...withdrawn.map((id) => `withdrawal:${id}`)].filter((k) => !sources.has(k));
    ctx.figure('ledger load: iterations / acknowledged credits / withdrawals', `${ledgerSent} / ${credited.length} / ${withdrawn.length}`);
    ctx.check(
      'acknowledged ledger entries lost',
      lostEntries.length,
      credited.length > 0 && lostEntries.length === 0,
      '0 (a payment entry per 200 succeed, a withdrawal entry per 200 withdrawal)',
    );
    for (const k of lostEntries.slice(0, 5)) ctx.note(`ledger entry lost: ${k}`);
    const unbooked = await pg.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM payments p WHERE p.merchant_id = $1 AND p.status IN ('succeeded', 'refunded')
                 AND NOT EXISTS (SELECT 1 FROM balance_transactions b WHERE b.source_id = p.id AND b.type = 'payment'))
            + (SELECT count(*)::int FROM withdrawals w WHERE w.merchant_id = $1
                 AND NOT EXISTS (SELECT 1 FROM balance_transactions b WHERE b.source_id = w.id AND b.type = 'withdrawal')) AS n`,
      [payer.id],
    );
    ctx.check(
      'succeeded payments or withdrawals without their ledger entry',
      unbooked.rows[0]!.n,
      unbooked.rows[0]!.n === 0,
      '0 (written in the same transaction)',
    );
    const totals = await pg.query<{ available: string; pending: string; ledger: string }>(
      'SELECT b.available, b.pending, (SELECT coalesce(sum(net), 0) FROM balance_transactions WHERE merchant_id = $1) AS ledger FROM balances b WHERE b.merchant_id = $1',
      [payer.id],
    );
    const t = totals.rows[0];
    const agree = t !== undefined && Number(t.available) + Number(t.pending) === Number(t.ledger);
    ctx.check('running totals vs ledger sum', t ? `${Number(t.available) + Number(t.pending)} vs ${t.ledger}` : 'no balance row', agree, 'equal');

    // Replays after the restart answer the original payment.
    const sample = keys.filter((_, i) => i % Math.max(1, Math.floor(keys.length / 50)) === 0);
    let replayMismatch = 0;
    for (const key of sample) {
      const reply = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: merchant.apiKey, body: QR_BODY(key), idempotencyKey: key });
      if (reply.status !== 200 || reply.headers.get('idempotent-replayed') !== 'true' || reply.body?.payment_id !== acknowledged.get(key)!.paymentId) {
        replayMismatch++;
        if (replayMismatch <= 3) ctx.note(`replay of ${key}: ${reply.status} replayed=${reply.headers.get('idempotent-replayed')} ${reply.text.slice(0, 200)}`);
      }
    }
    ctx.check(
      `replays of ${sample.length} acknowledged keys after restart`,
      `${sample.length - replayMismatch} same payment`,
      replayMismatch === 0,
      'all 200, Idempotent-Replayed, same payment_id',
    );

    // Every committed event reaches the receiver, signed.
    const events = await pg.query<{ id: string }>('SELECT id FROM events WHERE merchant_id = $1', [merchant.id]);
    const eventIds = events.rows.map((r) => r.id);
    // The ledger merchant has no webhook: only the first merchant's events fan out.
    const orphans = await pg.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events e WHERE e.merchant_id = $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)',
      [merchant.id],
    );
    ctx.check('events without a delivery row', orphans.rows[0]!.n, orphans.rows[0]!.n === 0, '0 (fan-out in the same transaction)');
    const deliveredStarted = Date.now();
    // Done when the receiver has every event and the database has recorded every delivery (none left pending).
    const waited = await waitFor(
      async () => {
        const delivered = receiver.delivered();
        if (!eventIds.every((id) => delivered.has(id))) return false;
        const pending = await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'");
        return pending.rows[0]!.n === 0;
      },
      LEASE_MS + 30_000,
      250,
    );
    const delivered = receiver.delivered();
    const missing = eventIds.filter((id) => !delivered.has(id));
    const dbState = await pg.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status');
    ctx.check(
      'committed events delivered after restart',
      `${eventIds.length - missing.length}/${eventIds.length}`,
      missing.length === 0,
      `all, within lease ${LEASE_MS / 1000} s + 30 s`,
    );
    ctx.figure('time until the last delivery (after checks)', `${((Date.now() - deliveredStarted) / 1000).toFixed(1)} s`, waited.ok ? '' : 'gave up');
    ctx.check(
      'delivery rows by status',
      dbState.rows.map((r) => `${r.status}: ${r.n}`).join(', '),
      dbState.rows.every((r) => r.status === 'delivered'),
      'all delivered',
    );
    for (const id of missing.slice(0, 5)) ctx.note(`not delivered: ${id}`);
    const unverified = receiver.arrivals.filter((a) => !a.verified || !a.consistent).length;
    ctx.check('deliveries failing standardwebhooks verification', unverified, unverified === 0, '0');
    const duplicates = receiver.arrivals.filter((a) => a.answered === 200).length - delivered.size;
    ctx.figure('duplicate deliveries (at least once)', duplicates, 'allowed: a send cut by the kill is retried after its lease');
    ctx.check('server alive at the end', server.alive(), server.alive(), 'true');
  },
};
