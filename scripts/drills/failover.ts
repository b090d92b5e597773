/**
 * failover: the service on a pg_auto_failover formation (a monitor and two data nodes with synchronous replication, on
 * loopback ports in a scratch directory), two servers and a worker given the formation's multi-host URI. Under a load
 * of QR codes, completions, refunds and withdrawals (each request retried with its Idempotency-Key until it gets a
 * final answer, as a client would), the primary's postmaster is SIGKILLed. Checked on the new primary:
 * - every write answered 2xx is there (its payment, completion, refund or withdrawal, and its ledger entry);
 * - nothing is applied twice (one payment per key, one ledger entry per source, one refund per payment, as many
 *   withdrawals as were acknowledged);
 * - every merchant's running balance equals its ledger's sum;
 * - every committed event is delivered, signed;
 * - writes are answered again within 30 s of the kill; meanwhile 503 service_unavailable in the envelope, no 500.
 */
import { randomBytes } from 'node:crypto';
import { leaseMsFor } from '../../server/src/app/deliver-webhooks.js';
import { ms, sleep, waitFor, type Drill, type DrillContext } from './lib/harness.js';
import { pgAutoFailoverFormation, type Formation, type NodeState } from './lib/formation.js';
import { startDrillReceiver, type DrillReceiver } from './lib/receiver.js';
import {
  ALL_EVENTS,
  call,
  createTestMerchant,
  envelopeViolation,
  inspect,
  registerWebhook,
  startServer,
  startWorker,
  WITHDRAWAL_EVENTS,
  type Reply,
  type ServiceProcess,
} from './lib/service.js';

const DATABASE = 'pqr';
const MERCHANTS = 3;
const CLIENTS = 6;
const WARM_UP_MS = 6_000;
/** How long the load goes on once writes are answered again. */
const AFTER_RECOVERY_MS = 5_000;
const WRITES_BACK_WITHIN_MS = 30_000;
/** A story (QR code, completion, refund, withdrawal) gives up retrying a request after this. */
const RETRY_FOR_MS = 60_000;
const MAX_STORIES = 600;
const WEBHOOK_TIMEOUT_MS = 1_000;
/** A send cut by the failover is retried once its lease ends (the server's leaseMsFor, with WEBHOOK_LEASE_MARGIN_MS). */
const LEASE_MARGIN_MS = 3_000;
const LEASE_MS = leaseMsFor(WEBHOOK_TIMEOUT_MS, LEASE_MARGIN_MS);

type Kind = 'qr' | 'succeed' | 'refund' | 'withdrawal';

interface Attempt {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  status: number;
  code: string;
}

interface Merchant {
  id: string;
  apiKey: string;
  receiver: DrillReceiver;
}

/** The formation's URI as node-postgres needs it: a user (libpq would take the OS user's name), and no TLS (the formation has none; node-postgres reads `prefer` as `verify-full`). */
const serviceUrl = (uri: string): string => uri.replace(/^postgres(?:ql)?:\/\//, 'postgres://postgres@').replace('sslmode=prefer', 'sslmode=disable');

export const failoverDrill: Drill = {
  name: 'failover',
  summary: 'pg_auto_failover, SIGKILL the primary postmaster under writes: none acknowledged lost or applied twice, writes back within 30 s',
  timeLimitMs: () => 240_000,
  async run(ctx) {
    const building = Date.now();
    const formation = await pgAutoFailoverFormation(ctx, DATABASE);
    const databaseUrl = serviceUrl(formation.uri);
    ctx.figure('formation built (monitor + 2 nodes)', `${((Date.now() - building) / 1000).toFixed(0)} s`);
    ctx.figure('DATABASE_URL', databaseUrl, `from pg_autoctl show uri: ${formation.uri}`);

    const first = await formation.primary();
    if (!first) throw new Error(`no primary in the formation: ${JSON.stringify(await formation.states())}`);
    const onFirst = await inspect(ctx, `postgres://postgres@127.0.0.1:${first.port}/${DATABASE}`);
    const sync = (
      await onFirst.query<{ names: string; commit: string }>(
        "SELECT current_setting('synchronous_standby_names') AS names, current_setting('synchronous_commit') AS commit",
      )
    ).rows[0]!;
    ctx.check(
      'a COMMIT waits for the standby (primary settings)',
      `synchronous_standby_names = '${sync.names}', synchronous_commit = ${sync.commit}`,
      sync.names !== '' && sync.commit === 'on',
      "a standby named, commit 'on'",
    );
    ctx.figure(
      'pg_auto_failover number_sync_standbys',
      /number_sync_standbys \| (\d+)/.exec(await formation.settings())?.[1] ?? '?',
      '0 is the most two nodes allow; the one standby is still synchronous',
    );

    const env = { WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS), WEBHOOK_LEASE_MARGIN_MS: String(LEASE_MARGIN_MS) };
    const merchants: Merchant[] = [];
    for (let m = 0; m < MERCHANTS; m++) {
      const created = await createTestMerchant(databaseUrl, `Failover ${m + 1}`, {
        bankCode: '014',
        accountNumber: '1234567890',
        accountName: `Failover ${m + 1}`,
      });
      const receiver = await startDrillReceiver(ctx);
      merchants.push({ ...created, receiver });
    }
    const servers = [
      await startServer(ctx, { name: 'server-a', databaseUrl, env: { ...env, WEBHOOK_DISPATCHER: 'off' } }),
      await startServer(ctx, { name: 'server-b', databaseUrl, env: { ...env, WEBHOOK_DISPATCHER: 'off' } }),
    ];
    const worker = await startWorker(ctx, { databaseUrl, env });
    for (const merchant of merchants) {
      merchant.receiver.setSecret(
        (await registerWebhook(servers[0]!.base, merchant.apiKey, merchant.receiver.url, [...ALL_EVENTS, ...WITHDRAWAL_EVENTS])).secret,
      );
    }

    const load = runLoad(ctx, servers, merchants);
    await sleep(WARM_UP_MS);
    const timeline = watchFormation(formation);
    const victim = first.postmasterPid();
    const killedAt = Date.now();
    process.kill(victim, 'SIGKILL');
    ctx.log(`SIGKILL postmaster ${victim} of ${first.name} (primary) after ${load.acknowledged().length} acknowledged writes`);
    const back = await waitFor(
      () => load.attempts.find((a) => a.startedAt > killedAt && a.status >= 200 && a.status < 300),
      WRITES_BACK_WITHIN_MS + 30_000,
      100,
    );
    await sleep(AFTER_RECOVERY_MS);
    load.stop();
    await load.done;
    await timeline.stop();

    // The outage as the clients saw it.
    const writesBackMs = back.ok ? back.value!.endedAt - killedAt : Number.NaN;
    const unavailable = load.attempts.filter((a) => a.status === 503);
    const cut = load.attempts.filter((a) => a.status === 0);
    const window = unavailable.length
      ? `${ms(Math.min(...unavailable.map((a) => a.endedAt)) - killedAt)} to ${ms(Math.max(...unavailable.map((a) => a.endedAt)) - killedAt)} after the kill`
      : 'none';
    ctx.check(
      'writes answered again after the kill',
      back.ok ? ms(writesBackMs) : 'never',
      back.ok && writesBackMs < WRITES_BACK_WITHIN_MS,
      `< ${WRITES_BACK_WITHIN_MS / 1000} s`,
    );
    ctx.figure('503 service_unavailable answers', unavailable.length, window);
    ctx.figure('requests cut (connection reset or time-out)', cut.length, 'retried with the same key');
    ctx.figure(
      'writes answered 503 or cut that had committed',
      load.replayedAfterFailure(),
      'their retry was a replay (Idempotent-Replayed), not a second write',
    );
    ctx.figure('failover as the monitor saw it', timeline.describe(killedAt));
    const outcomes = tally(load.attempts.map((a) => `${a.kind} ${a.status === 0 ? a.code : a.status}${a.status >= 400 ? ` ${a.code}` : ''}`));
    ctx.figure('requests', load.attempts.length, outcomes);
    const unexpected = load.attempts.filter((a) => a.status >= 500 && a.status !== 503);
    ctx.check('answers 5xx other than 503', unexpected.length, unexpected.length === 0, '0');
    ctx.check('non-2xx answers outside the error envelope', load.envelopeViolations.length, load.envelopeViolations.length === 0, '0');
    for (const v of load.envelopeViolations.slice(0, 3)) ctx.note(`envelope: ${v}`);
    ctx.check('stories given up (no final answer within 60 s of retries)', load.abandoned(), load.abandoned() === 0, '0');

    // Everything acknowledged is on the new primary, once.
    const promoted = await waitFor(() => formation.primary(), 60_000, 250);
    const second = promoted.value;
    ctx.check('another node is primary', second?.name ?? 'none', !!second && second.name !== first.name, `not ${first.name}`);
    if (!second) return;
    const pg = await inspect(ctx, `postgres://postgres@127.0.0.1:${second.port}/${DATABASE}`);
    const acknowledged = load.acknowledged();
    ctx.figure('acknowledged writes', acknowledged.length, tally(acknowledged.map((w) => w.kind)));
    const ids = (kind: Kind) => acknowledged.filter((w) => w.kind === kind).map((w) => w.id);
    const present = await pg.query<{ kind: Kind; id: string; ok: boolean }>(
      `SELECT 'qr' AS kind, k.id, EXISTS (SELECT 1 FROM payments p JOIN qr_codes q ON q.payment_id = p.id WHERE p.id = k.id) AS ok FROM unnest($1::text[]) AS k(id)
       UNION ALL SELECT 'succeed', k.id, EXISTS (SELECT 1 FROM payments p WHERE p.id = k.id AND p.status IN ('succeeded', 'refunded'))
                                    AND EXISTS (SELECT 1 FROM balance_transactions b WHERE b.source_id = k.id AND b.type = 'payment') FROM unnest($2::text[]) AS k(id)
       UNION ALL SELECT 'refund', k.id, EXISTS (SELECT 1 FROM refunds r WHERE r.id = k.id)
                                   AND EXISTS (SELECT 1 FROM balance_transactions b WHERE b.source_id = k.id AND b.type = 'refund') FROM unnest($3::text[]) AS k(id)
       UNION ALL SELECT 'withdrawal', k.id, EXISTS (SELECT 1 FROM withdrawals w WHERE w.id = k.id)
                                       AND EXISTS (SELECT 1 FROM balance_transactions b WHERE b.source_id = k.id AND b.type = 'withdrawal') FROM unnest($4::text[]) AS k(id)`,
      [ids('qr'), ids('succeed'), ids('refund'), ids('withdrawal')],
    );
    const lost = present.rows.filter((r) => !r.ok);
    ctx.check(
      'acknowledged writes missing on the new primary',
      lost.length,
      acknowledged.length > 0 && lost.length === 0,
      '0 (row and ledger entry of every 2xx)',
    );
    for (const r of lost.slice(0, 5)) ctx.note(`lost: ${r.kind} ${r.id}`);

    const merchantIds = merchants.map((m) => m.id);
    const twice = await pg.query<{ what: string; n: number }>(
      `SELECT 'payments for one reference' AS what, count(*)::int AS n FROM (SELECT reference FROM payments WHERE merchant_id = ANY($1) GROUP BY reference HAVING count(*) > 1) x
       UNION ALL SELECT 'ledger entries for one source', count(*)::int FROM (SELECT type, source_id FROM balance_transactions WHERE merchant_id = ANY($1) GROUP BY type, source_id HAVING count(*) > 1) x
       UNION ALL SELECT 'refunds of one payment', count(*)::int FROM (SELECT payment_id FROM refunds WHERE merchant_id = ANY($1) GROUP BY payment_id HAVING count(*) > 1) x
       UNION ALL SELECT 'withdrawals beyond the acknowledged', greatest((SELECT count(*)::int FROM withdrawals WHERE merchant_id = ANY($1)) - $2::int, 0)`,
      [merchantIds, ids('withdrawal').length],
    );
    const doubled = twice.rows.filter((r) => r.n > 0);
    ctx.check('writes applied twice', doubled.length ? doubled.map((r) => `${r.what}: ${r.n}`).join(', ') : 0, doubled.length === 0, '0');

    const balances = await pg.query<{ merchant_id: string; total: string; ledger: string }>(
      `SELECT b.merchant_id, b.available + b.pending AS total, (SELECT coalesce(sum(net), 0) FROM balance_transactions t WHERE t.merchant_id = b.merchant_id) AS ledger
       FROM balances b WHERE b.merchant_id = ANY($1)`,
      [merchantIds],
    );
    const unequal = balances.rows.filter((b) => Number(b.total) !== Number(b.ledger));
    ctx.check(
      'balances equal to their ledger',
      `${balances.rows.length - unequal.length}/${MERCHANTS}`,
      balances.rows.length === MERCHANTS && unequal.length === 0,
      'all',
    );
    for (const b of unequal) ctx.note(`balance ${b.merchant_id}: ${b.total} vs ledger ${b.ledger}`);

    // Every event committed on the new primary reaches its merchant's endpoint (a delivery leased at the kill waits for its lease).
    const events = await pg.query<{ id: string; merchant_id: string }>('SELECT id, merchant_id FROM events WHERE merchant_id = ANY($1)', [merchantIds]);
    const orphans = await pg.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events e WHERE e.merchant_id = ANY($1) AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)',
      [merchantIds],
    );
    ctx.check('events without a delivery row', orphans.rows[0]!.n, orphans.rows[0]!.n === 0, '0 (fan-out in the same transaction)');
    const receiverOf = new Map(merchants.map((m) => [m.id, m.receiver]));
    const deliveryStarted = Date.now();
    const delivered = await waitFor(() => events.rows.every((e) => receiverOf.get(e.merchant_id)!.delivered().has(e.id)), LEASE_MS + 20_000, 250);
    const missing = events.rows.filter((e) => !receiverOf.get(e.merchant_id)!.delivered().has(e.id));
    ctx.check(
      'committed events delivered',
      `${events.rows.length - missing.length}/${events.rows.length}`,
      missing.length === 0,
      `all (waited ${((Date.now() - deliveryStarted) / 1000).toFixed(1)} s of at most ${(LEASE_MS + 20_000) / 1000})`,
    );
    if (!delivered.ok) for (const e of missing.slice(0, 5)) ctx.note(`not delivered: ${e.id}`);
    const arrivals = merchants.flatMap((m) => m.receiver.arrivals);
    const unverified = arrivals.filter((a) => !a.verified || !a.consistent).length;
    ctx.check('deliveries failing standardwebhooks verification', unverified, unverified === 0, '0');
    const duplicates = arrivals.filter((a) => a.answered === 200).length - merchants.reduce((n, m) => n + m.receiver.delivered().size, 0);
    ctx.figure('duplicate deliveries (at least once)', duplicates, 'a send whose outcome could not be recorded is sent again');
    const alive = [...servers, worker].filter((p) => p.alive()).length;
    ctx.check('servers and worker alive at the end', `${alive}/3`, alive === 3, '3/3');
  },
};

/** Closed-loop clients over both servers; each story is QR code, completion, then sometimes a refund and a withdrawal. */
function runLoad(ctx: DrillContext, servers: ServiceProcess[], merchants: Merchant[]) {
  const run = randomBytes(3).toString('hex');
  const attempts: Attempt[] = [];
  const written: { kind: Kind; id: string }[] = [];
  const envelopeViolations: string[] = [];
  let stopped = false;
  let story = 0;
  let abandoned = 0;
  /** Writes answered 503 (or cut) that had committed all the same: their retry was a replay. */
  let replayedAfterFailure = 0;

  /** Sends until a final answer (not 503, not cut, not a key still in use), with the same key; null if it gave up. */
  async function send(kind: Kind, server: ServiceProcess, apiKey: string, path: string, body: unknown, key: string): Promise<Reply | null> {
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    for (let tries = 1; ; tries++) {
      const startedAt = Date.now();
      const reply = await call(server.base, 'POST', path, { apiKey, body, idempotencyKey: key, timeoutMs: 30_000 });
      const code = reply.status === 0 ? reply.text : (reply.body?.error?.code ?? 'ok');
      attempts.push({ kind, startedAt, endedAt: Date.now(), status: reply.status, code });
      if (reply.status !== 0) {
        const violation = envelopeViolation(reply.status, reply.headers, reply.text, 'POST');
        if (violation) envelopeViolations.push(`${kind} ${reply.status}: ${violation}`);
      }
      const retry = reply.status === 0 || reply.status === 503 || reply.status >= 500 || code === 'idempotency_key_in_use';
      if (!retry) {
        if (tries > 1 && reply.headers.get('idempotent-replayed') === 'true') replayedAfterFailure++;
        return reply;
      }
      if (Date.now() > giveUpAt) return null;
      await sleep(200);
    }
  }

  const ok = (reply: Reply | null): reply is Reply => reply !== null && reply.status >= 200 && reply.status < 300;

  async function client(c: number): Promise<void> {
    while (!stopped && story < MAX_STORIES) {
      const i = story++;
      const merchant = merchants[i % merchants.length]!;
      const server = servers[(c + i) % servers.length]!;
      const key = `fo-${run}-${i}`;
      const qr = await send('qr', server, merchant.apiKey, '/Thai/v1/qr-codes', { amount: 2_000, currency: 'THB', reference: key }, key);
      if (!ok(qr)) {
        if (qr === null) abandoned++;
        continue;
      }
      written.push({ kind: 'qr', id: qr.body.payment_id as string });
      const paymentId = qr.body.payment_id as string;
      const succeeded = await send('succeed', server, merchant.apiKey, `/Thai/v1/test/payments/${paymentId}/succeed`, undefined, `s-${key}`);
      if (succeeded === null) abandoned++;
      if (!ok(succeeded)) continue;
      written.push({ kind: 'succeed', id: paymentId });
      if (i % 2 === 0) {
        const refund = await send('refund', server, merchant.apiKey, '/Thai/v1/refunds', { payment_id: paymentId, amount: 500 }, `r-${key}`);
        if (refund === null) abandoned++;
        else if (ok(refund)) written.push({ kind: 'refund', id: refund.body.refund_id as string });
      }
      if (i % 3 === 0) {
        const withdrawal = await send('withdrawal', server, merchant.apiKey, '/Thai/v1/withdrawals', { amount: 300 }, `w-${key}`);
        if (withdrawal === null) abandoned++;
        else if (ok(withdrawal)) written.push({ kind: 'withdrawal', id: withdrawal.body.withdrawal_id as string });
      }
    }
  }

  const done = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c))).then(() => ctx.log(`load stopped after ${story} stories`));
  return {
    attempts,
    envelopeViolations,
    done,
    stop: () => void (stopped = true),
    acknowledged: () => written,
    abandoned: () => abandoned,
    replayedAfterFailure: () => replayedAfterFailure,
  };
}

/** The monitor's view every 250 ms: when each node's reported state changed. */
function watchFormation(formation: Formation) {
  const changes: { at: number; state: NodeState }[] = [];
  const last = new Map<string, string>();
  let stopped = false;
  const poll = async () => {
    while (!stopped) {
      const states = await formation.states().catch(() => []);
      for (const state of states) {
        const before = last.get(state.name);
        if (before !== undefined && before !== state.reported) changes.push({ at: Date.now(), state });
        last.set(state.name, state.reported);
      }
      await sleep(250);
    }
  };
  const polling = poll();
  return {
    stop: () => {
      stopped = true;
      return polling;
    },
    describe: (from: number) =>
      changes
        .filter((c) => c.at >= from)
        .map((c) => `${c.state.name} ${c.state.reported} +${((c.at - from) / 1000).toFixed(1)} s`)
        .join(', ') || 'no change seen',
  };
}

function tally(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([k, v]) => `${k}: ${v}`).join(', ');
}
