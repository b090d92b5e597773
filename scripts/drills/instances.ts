/**
 * instances: two servers (WEBHOOK_DISPATCHER=off) and two workers on one database.
 * - The same Idempotency-Key sent concurrently to both servers: exactly one payment per key, every 200 names it,
 *   every other answer is 409 idempotency_key_in_use.
 * - The same payment completed concurrently on both servers (succeed on one, fail on the other): exactly one wins.
 * - The same payment refunded in full concurrently on both servers: exactly one refund, never more than the amount.
 * - Withdrawals racing for the last baht across both servers: exactly as many succeed as the balance covers, the
 *   sandbox payout rail (run by all four processes) settles each exactly once, and the ledger sums to the balance.
 * - Every event is delivered by the two workers, and no delivery attempt is made twice: the receiver always answers
 *   200, so it must see each webhook-id exactly once, and every delivery row records exactly one attempt.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { waitFor, type Drill, type DrillContext } from './lib/harness.js';
import { startDrillReceiver } from './lib/receiver.js';
import {
  call,
  createTestMerchant,
  inspect,
  QR_BODY,
  registerWebhook,
  scratchDatabase,
  startServer,
  startWorker,
  type Reply,
  type ServiceProcess,
} from './lib/service.js';

/** Runs tasks with at most `limit` at once. */
async function inBatches<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

const WITHDRAWAL = 500;

/** 10,000 satang of paid QR codes, then 2 x 20 withdrawals of 500 at once, alternating servers: 20 fit. */
async function withdrawalRaces(ctx: DrillContext, databaseUrl: string, servers: ServiceProcess[], pg: pg.Client): Promise<void> {
  const merchant = await createTestMerchant(databaseUrl, 'Withdrawal racer', { bankCode: '014', accountNumber: '1234567890', accountName: 'Racer' });
  const apiKey = merchant.apiKey;
  for (let i = 0; i < 10; i++) {
    const qr = await call(servers[i % 2]!.base, 'POST', '/Thai/v1/qr-codes', { apiKey, body: { amount: 1000, currency: 'THB' } });
    await call(servers[(i + 1) % 2]!.base, 'POST', `/Thai/v1/test/payments/${qr.body.payment_id}/succeed`, { apiKey });
  }
  const replies = await Promise.all(
    Array.from({ length: 40 }, (_, i) => call(servers[i % 2]!.base, 'POST', '/Thai/v1/withdrawals', { apiKey, body: { amount: WITHDRAWAL } })),
  );
  const tally = new Map<string, number>();
  for (const r of replies) tally.set(label(r), (tally.get(label(r)) ?? 0) + 1);
  ctx.figure('40 withdrawals of 500 against 10,000 (servers a and b)', 40, [...tally].map(([k, v]) => `${k}: ${v}`).join(', '));
  const made = replies.filter((r) => r.status === 200).map((r) => r.body.withdrawal_id as string);
  const refused = replies.filter((r) => r.status === 402 && r.body?.error?.code === 'insufficient_funds').length;
  ctx.check('withdrawals made / refused 402', `${made.length} / ${refused}`, made.length === 20 && refused === 20, '20 / 20');
  const settled = await waitFor(
    async () => {
      const open = await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM withdrawals WHERE merchant_id = $1 AND status IN ('pending', 'processed')", [
        merchant.id,
      ]);
      return open.rows[0]!.n === 0;
    },
    30_000,
    250,
  );
  ctx.check('withdrawals settled by the sandbox rail', made.length, settled.ok, `all, in ${(settled.waitedMs / 1000).toFixed(1)} s`);
  const events = await pg.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM withdrawals w WHERE w.merchant_id = $1
       AND (SELECT count(*) FROM events e WHERE e.kind LIKE 'withdrawal.%' AND e.payload::jsonb #>> '{data,withdrawal_id}' = w.id) <> 3`,
    [merchant.id],
  );
  ctx.check('withdrawals without exactly 3 events (pending, processed, succeeded)', events.rows[0]!.n, events.rows[0]!.n === 0, '0: no step taken twice');
  const balance = await pg.query<{ available: string; pending: string; ledger: string; entries: number }>(
    `SELECT b.available, b.pending, (SELECT sum(net) FROM balance_transactions WHERE merchant_id = $1) AS ledger,
            (SELECT count(*)::int FROM balance_transactions WHERE merchant_id = $1) AS entries
     FROM balances b WHERE b.merchant_id = $1`,
    [merchant.id],
  );
  const row = balance.rows[0]!;
  ctx.check(
    'balance / ledger sum / entries',
    `${row.available}+${row.pending} / ${row.ledger} / ${row.entries}`,
    Number(row.available) === 0 && Number(row.pending) === 0 && Number(row.ledger) === 0 && row.entries === 30,
    '0+0 / 0 / 30',
  );
}

const label = (r: Reply) => (r.status === 0 ? r.text : `${r.status}${r.body?.error?.code ? ` ${r.body.error.code}` : ''}`);

export const instancesDrill: Drill = {
  name: 'instances',
  summary: 'two servers + two workers on one database: one payment per key, one winner per race, no attempt twice',
  timeLimitMs: (short) => (short ? 120_000 : 240_000),
  async run(ctx) {
    const keyCount = ctx.short ? 120 : 400;
    const perKey = 6; // three on each server
    const raceCount = ctx.short ? 40 : 120;

    const db = await scratchDatabase(ctx);
    const merchant = await createTestMerchant(db.url);
    const receiver = await startDrillReceiver(ctx);
    const serverEnv = { WEBHOOK_DISPATCHER: 'off' };
    const [a, b] = await Promise.all([
      startServer(ctx, { name: 'server-a', databaseUrl: db.url, env: serverEnv }),
      startServer(ctx, { name: 'server-b', databaseUrl: db.url, env: serverEnv }),
    ]);
    const workers = await Promise.all([
      startWorker(ctx, { name: 'worker-1', databaseUrl: db.url }),
      startWorker(ctx, { name: 'worker-2', databaseUrl: db.url }),
    ]);
    const servers = [a, b];
    const webhook = await registerWebhook(a.base, merchant.apiKey, receiver.url);
    receiver.setSecret(webhook.secret);
    const apiKey = merchant.apiKey;
    const run = randomBytes(3).toString('hex');

    // 1. Same key, concurrently, on both servers.
    const keys = Array.from({ length: keyCount }, (_, i) => `inst-${run}-${i}`);
    const answers = new Map<string, Reply[]>();
    const tally = new Map<string, number>();
    const byServer = [0, 0];
    const started = Date.now();
    await inBatches(keys, 8, async (key) => {
      const replies = await Promise.all(
        Array.from({ length: perKey }, (_, i) =>
          call(servers[i % 2]!.base, 'POST', '/Thai/v1/qr-codes', { apiKey, body: QR_BODY(key), idempotencyKey: key }).then((r) => {
            if (r.status === 200) byServer[i % 2]!++;
            return r;
          }),
        ),
      );
      answers.set(key, replies);
      for (const r of replies) tally.set(label(r), (tally.get(label(r)) ?? 0) + 1);
    });
    ctx.figure(`same-key requests (${keyCount} keys x ${perKey})`, keyCount * perKey, [...tally].map(([k, v]) => `${k}: ${v}`).join(', '));
    ctx.figure('200s answered by server a / b', `${byServer[0]} / ${byServer[1]}`, `${((Date.now() - started) / 1000).toFixed(1)} s`);
    const badKeys: string[] = [];
    for (const [key, replies] of answers) {
      const ok = replies.filter((r) => r.status === 200);
      const ids = new Set(ok.map((r) => r.body.payment_id));
      const others = replies.filter((r) => r.status !== 200 && !(r.status === 409 && r.body?.error?.code === 'idempotency_key_in_use'));
      if (ok.length === 0 || ids.size !== 1 || others.length > 0) badKeys.push(`${key}: ${replies.map(label).join(', ')} ids=${[...ids].join(',')}`);
    }
    ctx.check('keys with a wrong set of answers', badKeys.length, badKeys.length === 0, '0 (>= one 200, all the same payment, the rest 409 in_use)');
    for (const line of badKeys.slice(0, 5)) ctx.note(`same key: ${line}`);
    const pg = await inspect(ctx, db.url);
    const perReference = await pg.query<{ reference: string; n: number }>(
      'SELECT reference, count(*)::int AS n FROM payments WHERE merchant_id = $1 GROUP BY reference',
      [merchant.id],
    );
    const dupes = perReference.rows.filter((r) => r.n !== 1);
    ctx.check(
      'payments per key',
      `${perReference.rows.length} keys, ${dupes.length} with != 1`,
      perReference.rows.length === keyCount && dupes.length === 0,
      `exactly 1 for each of ${keyCount}`,
    );

    // 2. Races between the servers on the same payment.
    const paymentIds = keys.slice(0, raceCount).map((key) => answers.get(key)!.find((r) => r.status === 200)!.body.payment_id as string);
    const completions = new Map<string, number>();
    const badRaces: string[] = [];
    await inBatches(paymentIds, 8, async (id) => {
      const [s, f] = await Promise.all([
        call(a.base, 'POST', `/Thai/v1/test/payments/${id}/succeed`, { apiKey, idempotencyKey: `s-${id}` }),
        call(b.base, 'POST', `/Thai/v1/test/payments/${id}/fail`, { apiKey, idempotencyKey: `f-${id}` }),
      ]);
      const outcome = `${label(s)} | ${label(f)}`;
      completions.set(outcome, (completions.get(outcome) ?? 0) + 1);
      const wins = [s, f].filter((r) => r.status === 200).length;
      const loses = [s, f].filter((r) => r.status === 422 && r.body?.error?.code === 'payment_not_pending').length;
      if (wins !== 1 || loses !== 1) badRaces.push(`${id}: succeed ${label(s)}, fail ${label(f)}`);
    });
    ctx.figure('succeed(a) | fail(b) races', raceCount, [...completions].map(([k, v]) => `${k}: ${v}`).join('; '));
    const terminal = await pg.query<{ id: string; n: number }>(
      `SELECT p.id, (SELECT count(*)::int FROM events e WHERE e.kind IN ('payment.succeeded', 'payment.failed') AND e.payload::jsonb #>> '{data,payment_id}' = p.id) AS n
       FROM payments p WHERE p.id = ANY($1)`,
      [paymentIds],
    );
    const doubleEvents = terminal.rows.filter((r) => r.n !== 1).length;
    ctx.check('completion races with != 1 winner', badRaces.length, badRaces.length === 0, '0 (one 200, one 422 payment_not_pending)');
    ctx.check('payments with != 1 completion event', doubleEvents, doubleEvents === 0, '0');
    for (const line of badRaces.slice(0, 5)) ctx.note(`completion race: ${line}`);

    const succeeded = (await pg.query<{ id: string }>("SELECT id FROM payments WHERE id = ANY($1) AND status = 'succeeded'", [paymentIds])).rows.map(
      (r) => r.id,
    );
    const refundTally = new Map<string, number>();
    const badRefunds: string[] = [];
    await inBatches(succeeded, 8, async (id) => {
      const replies = await Promise.all(
        [a, b].map((s, i) => call(s.base, 'POST', '/Thai/v1/refunds', { apiKey, body: { payment_id: id }, idempotencyKey: `r${i}-${id}` })),
      );
      const outcome = replies.map(label).join(' | ');
      refundTally.set(outcome, (refundTally.get(outcome) ?? 0) + 1);
      if (replies.filter((r) => r.status === 200).length !== 1) badRefunds.push(`${id}: ${outcome}`);
    });
    ctx.figure('full refund(a) | full refund(b) races', succeeded.length, [...refundTally].map(([k, v]) => `${k}: ${v}`).join('; '));
    const over = await pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments p WHERE p.id = ANY($1)
         AND (p.refunded_amount > p.amount OR (SELECT coalesce(sum(amount), 0) FROM refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded') <> p.amount)`,
      [succeeded],
    );
    ctx.check('refund races with != 1 refund', badRefunds.length, badRefunds.length === 0, '0');
    ctx.check('payments refunded other than exactly once in full', over.rows[0]!.n, over.rows[0]!.n === 0, '0');
    for (const line of badRefunds.slice(0, 5)) ctx.note(`refund race: ${line}`);

    // 3. Withdrawals racing across the servers for one balance.
    await withdrawalRaces(ctx, db.url, servers, pg);

    // 4. Deliveries by the two workers (the merchant with the webhook).
    const eventIds = (await pg.query<{ id: string }>('SELECT id FROM events WHERE merchant_id = $1', [merchant.id])).rows.map((r) => r.id);
    const waited = await waitFor(
      async () => {
        const delivered = receiver.delivered();
        if (!eventIds.every((id) => delivered.has(id))) return false;
        const pending = await pg.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'");
        return pending.rows[0]!.n === 0;
      },
      60_000,
      250,
    );
    const delivered = receiver.delivered();
    ctx.check(
      'events delivered',
      `${eventIds.filter((id) => delivered.has(id)).length}/${eventIds.length}`,
      waited.ok,
      `all, in ${(waited.waitedMs / 1000).toFixed(1)} s`,
    );
    const twice = [...receiver.counts()].filter(([, n]) => n > 1);
    ctx.check('webhook-ids received more than once', twice.length, twice.length === 0, '0 (receiver always 200)');
    for (const [id, n] of twice.slice(0, 5)) ctx.note(`received ${n} times: ${id}`);
    const attempts = await pg.query<{ attempts: number; n: number }>(
      'SELECT attempts, count(*)::int AS n FROM webhook_deliveries GROUP BY attempts ORDER BY attempts',
    );
    ctx.check(
      'delivery rows by attempts',
      attempts.rows.map((r) => `${r.attempts}: ${r.n}`).join(', '),
      attempts.rows.every((r) => r.attempts === 1),
      'all 1',
    );
    const unverified = receiver.arrivals.filter((x) => !x.verified || !x.consistent).length;
    ctx.check('deliveries failing standardwebhooks verification', unverified, unverified === 0, '0');
    const alive = [...servers, ...workers].filter((p) => p.alive()).length;
    ctx.check('processes alive at the end', `${alive}/4`, alive === 4, '4/4');
  },
};
