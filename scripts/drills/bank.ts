/**
 * bank: 1,000 live QR payments paid through the SCB simulator, with 10 % of the bank's confirmations dropped, 10 %
 * sent twice at once, and the server SIGKILLed once in the middle. Checks that
 * - every paid payment ends `succeeded`, exactly once (one bank transaction, one payment.succeeded event);
 * - nothing that should match ends unmatched;
 * and measures the time from payment (the bank's time) to `succeeded` (the payment's updated_at), p50/p99, for
 * confirmed payments and for those only reconciliation could apply.
 * The bank's resends are compressed from 12 s to 1 s, and reconciliation runs every 5 s (BANK_RECONCILE_INTERVAL_MS).
 */
import { randomBytes } from 'node:crypto';
import { createMerchant } from '../../server/src/app/merchants.js';
import { loadConfig } from '../../server/src/config.js';
import { openRuntime } from '../../server/src/main.js';
import { callbackUrlOf, LOCAL_BANK, scbServiceEnv, startBankSimulator } from '../bank-simulator/simulator.js';
import { ms, percentile, sleep, waitFor, type Drill } from './lib/harness.js';
import { call, closedLoop, inspect, scratchDatabase, startServer, type ServiceProcess } from './lib/service.js';

const RECONCILE_INTERVAL_MS = 5_000;

async function createLiveMerchant(databaseUrl: string): Promise<{ id: string; apiKey: string }> {
  const runtime = await openRuntime(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', WEBHOOK_DISPATCHER: 'off' }));
  try {
    const { merchant, apiKey } = await createMerchant(runtime.services, {
      name: 'Live drill merchant',
      mode: 'live',
      account: { kind: 'promptpay_id', id: '0812345678' },
    });
    return { id: merchant.id, apiKey };
  } finally {
    await runtime.close();
  }
}

export const bankDrill: Drill = {
  name: 'bank',
  summary: '1,000 live payments through the SCB simulator, 10 % of callbacks dropped, 10 % duplicated, one SIGKILL',
  timeLimitMs: () => 420_000,
  async run(ctx) {
    const payments = ctx.short ? 200 : 1_000;
    const concurrency = 8;
    const db = await scratchDatabase(ctx);
    const merchant = await createLiveMerchant(db.url);
    const bank = await startBankSimulator({ ...LOCAL_BANK, retryDelayMs: 1_000, knobs: { dropRate: 0.1, duplicateRate: 0.1 } });
    ctx.defer(() => bank.stop());
    const env = scbServiceEnv(bank.url, RECONCILE_INTERVAL_MS);
    let server: ServiceProcess = await startServer(ctx, { databaseUrl: db.url, env });
    const port = server.port;
    bank.setCallbackUrl(callbackUrlOf(server.base));

    // Each task: create a live QR code (retrying its key while the server is down), then pay it at the bank.
    const run = randomBytes(3).toString('hex');
    const paid = new Map<string, { transactionId: string; callback: string }>();
    let qrFailures = 0;
    let started = 0;
    let killed = false;
    const loop = closedLoop(
      concurrency,
      () => started >= payments,
      async (i) => {
        started++;
        const key = `bank-${run}-${i}`;
        for (;;) {
          const reply = await call(server.base, 'POST', '/Thai/v1/qr-codes', {
            apiKey: merchant.apiKey,
            body: { amount: 10_000 + (i % 500), currency: 'THB', expiry_minutes: 60 },
            idempotencyKey: key,
            timeoutMs: 10_000,
          });
          if (reply.status === 200) {
            const { transaction, callback } = bank.pay({ qr_data: reply.body.qr_data, payer_name: `PAYER ${i}` });
            paid.set(reply.body.payment_id as string, { transactionId: transaction.transactionId, callback });
            return;
          }
          qrFailures++;
          await sleep(reply.status === 0 ? 200 : 20);
        }
      },
    );
    const killer = (async () => {
      await waitFor(() => paid.size >= payments / 2, 300_000, 20);
      await server.kill('SIGKILL');
      killed = true;
      ctx.log(`SIGKILL after ${paid.size} payments`);
      await sleep(500);
      server = await startServer(ctx, { name: 'server#2', databaseUrl: db.url, port, env });
    })();
    await Promise.all([loop, killer]);
    const paidAt = Date.now();

    const pg = await inspect(ctx, db.url);
    const ids = [...paid.keys()];
    const settled = await waitFor(
      async () => {
        const { rows } = await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM payments WHERE id = ANY($1) AND status = 'succeeded'", [ids]);
        return rows[0]!.n === ids.length;
      },
      3 * RECONCILE_INTERVAL_MS + 60_000,
      250,
    );
    await bank.callbacksSettled();

    const states = await pg.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM payments WHERE id = ANY($1) GROUP BY status ORDER BY status',
      [ids],
    );
    const events = await pg.query<{ payment_id: string; n: number }>(
      `SELECT e.payload::jsonb #>> '{data,payment_id}' AS payment_id, count(*)::int AS n FROM events e WHERE e.kind = 'payment.succeeded' GROUP BY 1`,
    );
    const eventsPer = new Map(events.rows.map((r) => [r.payment_id, r.n]));
    const bankRows = await pg.query<{ payment_id: string | null; bank_transaction_id: string; unmatched_reason: string | null }>(
      'SELECT payment_id, bank_transaction_id, unmatched_reason FROM bank_transactions',
    );
    const recordedFor = new Map(bankRows.rows.filter((r) => r.payment_id).map((r) => [r.payment_id!, r]));
    const timing = await pg.query<{ id: string; ms: number }>(
      `SELECT id, extract(epoch FROM (updated_at - completed_at)) * 1000 AS ms FROM payments WHERE id = ANY($1) AND status = 'succeeded'`,
      [ids],
    );

    const succeededOnce = ids.filter(
      (id) => eventsPer.get(id) === 1 && recordedFor.get(id)?.bank_transaction_id === paid.get(id)!.transactionId && !recordedFor.get(id)?.unmatched_reason,
    );
    const unmatched = bankRows.rows.filter((r) => r.unmatched_reason !== null);
    const dropped = ids.filter((id) => paid.get(id)!.callback === 'dropped');
    const attempts = new Map<string, number>();
    for (const a of bank.callbackAttempts) attempts.set(String(a.status ?? 'no answer'), (attempts.get(String(a.status ?? 'no answer')) ?? 0) + 1);
    const duplicated = new Set(bank.callbackAttempts.map((a) => a.transactionId)).size;

    ctx.check('server SIGKILLed and restarted', killed, killed, 'true');
    ctx.figure('live payments paid at the bank', ids.length, `QR requests refused or cut off while the server was down: ${qrFailures}`);
    ctx.figure(
      'confirmations',
      `${dropped.length} dropped`,
      `callback answers: ${[...attempts].map(([s, n]) => `${s}: ${n}`).join(', ')} (${bank.callbackAttempts.length} attempts for ${duplicated} transactions)`,
    );
    ctx.check('paid payments succeeded', states.rows.map((r) => `${r.status}: ${r.n}`).join(', '), settled.ok, `all ${ids.length} succeeded`);
    ctx.check(
      'succeeded exactly once (one bank transaction, one payment.succeeded)',
      `${succeededOnce.length}/${ids.length}`,
      succeededOnce.length === ids.length,
      'all',
    );
    ctx.check('bank transactions recorded', bankRows.rows.length, bankRows.rows.length === ids.length, String(ids.length));
    ctx.check('unmatched that should have matched', unmatched.length, unmatched.length === 0, '0');
    const all = timing.rows.map((r) => Number(r.ms));
    const droppedSet = new Set(dropped);
    const viaCallback = timing.rows.filter((r) => !droppedSet.has(r.id)).map((r) => Number(r.ms));
    const viaReconciliation = timing.rows.filter((r) => droppedSet.has(r.id)).map((r) => Number(r.ms));
    ctx.figure('payment to succeeded, all', `p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}`, `max ${ms(Math.max(...all))}`);
    ctx.figure(
      '  confirmed by callback',
      `p50 ${ms(percentile(viaCallback, 50))}, p99 ${ms(percentile(viaCallback, 99))}`,
      `${viaCallback.length} payments (incl. those hit by the SIGKILL)`,
    );
    ctx.figure(
      '  applied by reconciliation',
      `p50 ${ms(percentile(viaReconciliation, 50))}, p99 ${ms(percentile(viaReconciliation, 99))}`,
      `${viaReconciliation.length} dropped callbacks, BANK_RECONCILE_INTERVAL_MS=${RECONCILE_INTERVAL_MS}`,
    );
    ctx.figure('time from the last payment until all succeeded', `${((Date.now() - paidAt) / 1000).toFixed(1)} s`);
    ctx.check('server alive at the end', server.alive(), server.alive(), 'true');
  },
};
