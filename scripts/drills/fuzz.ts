/**
 * fuzz: >= 10,000 hostile requests generated with fast-check (--short: 1,000) across every operation, sent to a
 * server child on a scratch database. Guarantees: no 5xx, every response has a Request-Id and every non-2xx body is
 * the error envelope {error: {code, message, type, request_id}}, no request left unanswered, the process alive, and
 * its memory flat (RSS after a warm-up tenth vs at the end). The seed is printed; DRILL_SEED=<n> replays a run.
 */
import http from 'node:http';
import fc from 'fast-check';
import { percentile, sleep, type Drill } from './lib/harness.js';
import { describe, hostileRequests, materialize, type HostileRequest, type Known } from './lib/hostile.js';
import { call, createTestMerchant, envelopeViolation, QR_BODY, scratchDatabase, startServer } from './lib/service.js';

/** Heap still in use after a full GC, end of run vs after the warm-up tenth. */
const HEAP_GROWTH_LIMIT_MIB = 16;
/** Node's default limit on the request line and headers (--max-http-header-size). */
const NODE_HEAD_LIMIT = 16 * 1024;

const headBytes = (request: HostileRequest): number =>
  request.method.length + request.path.length + Object.entries(request.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0) + 64;

/** A server error message with ids and numbers taken out, so that one cause is one line. */
const causeOf = (message: string): string =>
  message
    .replace(/\b(?:pay|qr|rfd|wh|txn|req|mch|evt)_[A-Za-z0-9]+/g, '<id>')
    .replace(/"[^"]{20,}"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 110);

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  error?: string;
  ms: number;
}

function send(agent: http.Agent, base: URL, request: HostileRequest, body: Buffer | null, timeoutMs: number): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (sent: Omit<Sent, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...sent, ms: performance.now() - started });
    };
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        agent,
      });
    } catch (error) {
      done({ status: -1, headers: {}, text: '', error: `not sendable: ${(error as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      req.destroy(new Error('no answer'));
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), error: error.message });
      });
    });
    req.on('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      done({ status: 0, headers: {}, text: '', error: error.code ?? error.message });
    });
    req.end(body ?? undefined);
  });
}

async function setUp(base: string, apiKey: string, otherApiKey: string): Promise<Known> {
  const qr = async (key: string, k = apiKey) => {
    const r = await call(base, 'POST', '/Thai/v1/qr-codes', { apiKey: k, body: QR_BODY(key), idempotencyKey: key });
    if (r.status !== 200) throw new Error(`set-up QR code: ${r.status} ${r.text}`);
    return r.body as { payment_id: string; qr_code_id: string };
  };
  const created = await Promise.all(['fz-1', 'fz-2', 'fz-3', 'fz-4', 'fz-5'].map((key) => qr(key)));
  const [, paid, expired] = created as [unknown, { payment_id: string }, { payment_id: string }];
  await call(base, 'POST', `/Thai/v1/test/payments/${paid.payment_id}/succeed`, { apiKey });
  await call(base, 'POST', `/Thai/v1/test/payments/${expired.payment_id}/expire`, { apiKey });
  const refund = await call(base, 'POST', '/Thai/v1/refunds', { apiKey, body: { payment_id: paid.payment_id, amount: 100 } });
  const card = await call(base, 'POST', '/Thai/v1/payments', { apiKey, body: { token_id: 'tok_visa', amount: 5000, currency: 'THB' } });
  const webhooks = await Promise.all(
    ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'].map((url) =>
      call(base, 'POST', '/Thai/v1/webhooks', { apiKey, body: { url, events: ['payment.succeeded'] } }),
    ),
  );
  const other = await qr('fz-other', otherApiKey);
  return {
    apiKey,
    otherApiKey,
    paymentIds: [...created.map((c) => c.payment_id), card.body.payment_id],
    refundIds: [refund.body.refund_id],
    qrCodeIds: created.map((c) => c.qr_code_id),
    webhookIds: webhooks.map((w) => w.body.webhook_id),
    otherPaymentId: other.payment_id,
  };
}

export const fuzzDrill: Drill = {
  name: 'fuzz',
  summary: 'hostile generated requests on every operation: no 5xx, envelope everywhere, alive, memory flat',
  timeLimitMs: (short) => (short ? 150_000 : 900_000),
  async run(ctx) {
    const total = ctx.short ? 1_000 : 10_000;
    const seed = process.env.DRILL_SEED ? Number(process.env.DRILL_SEED) : Math.floor(Math.random() * 2 ** 31);
    const concurrency = 8;
    const db = await scratchDatabase(ctx);
    const merchant = await createTestMerchant(db.url);
    const other = await createTestMerchant(db.url, 'Other merchant');
    // No dispatcher: registered webhooks are never called, so nothing leaves the machine.
    const server = await startServer(ctx, { databaseUrl: db.url, env: { WEBHOOK_DISPATCHER: 'off' }, memoryProbe: true });
    const known = await setUp(server.base, merchant.apiKey, other.apiKey);
    const arbitrary = hostileRequests(known);
    ctx.log(`seed ${seed}: ${total} requests, ${concurrency} at a time`);

    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    ctx.defer(() => agent.destroy());
    const base = new URL(server.base);
    const byStatus = new Map<number, number>();
    const byOperation = new Map<string, number>();
    const violations = new Map<string, { count: number; example: string }>();
    const cut = new Map<string, number>();
    const latencies: number[] = [];
    let rssAfterWarmup = 0;
    let gcAfterWarmup = { rss: 0, heapUsed: 0, external: 0 };
    const warmup = Math.floor(total / 10);
    const violate = (kind: string, example: string) => {
      const v = violations.get(kind) ?? { count: 0, example };
      v.count++;
      violations.set(kind, v);
    };

    const batchSize = 250;
    let done = 0;
    for (let batch = 0; done < total; batch++) {
      const requests = fc.sample(arbitrary, { numRuns: Math.min(batchSize, total - done), seed: seed + batch });
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < requests.length) {
            const request = requests[next++]!;
            const bytes = materialize(request.body);
            const sent = await send(agent, base, request, bytes, 20_000);
            byOperation.set(request.operation, (byOperation.get(request.operation) ?? 0) + 1);
            if (sent.status === -1) {
              cut.set('not sendable', (cut.get('not sendable') ?? 0) + 1);
              continue;
            }
            latencies.push(sent.ms);
            byStatus.set(sent.status, (byStatus.get(sent.status) ?? 0) + 1);
            if (sent.status === 0) {
              // The server may close a connection on a body it refuses before reading it (413): the client can see a
              // reset instead of the answer. Anything else without an answer is a hang or a crash.
              const benign = (bytes?.length ?? 0) > 1024 * 1024 && /ECONNRESET|EPIPE/.test(sent.error ?? '');
              if (benign) cut.set(`${sent.error} on a body > 1 MiB`, (cut.get(`${sent.error} on a body > 1 MiB`) ?? 0) + 1);
              else if (headBytes(request) > NODE_HEAD_LIMIT)
                violate('envelope: request head > 16 KiB: connection reset, no response', describe(request, bytes));
              else violate(`no answer (${sent.error})`, describe(request, bytes));
              continue;
            }
            const headers = sent.headers as Record<string, string | undefined>;
            const problem = envelopeViolation(sent.status, headers, sent.text, request.method);
            if (sent.status >= 500) {
              const requestId = String(headers['request-id'] ?? '');
              await sleep(20); // the log line may trail the response
              const cause = server.errorsByRequest.get(requestId) ?? 'no server log line';
              violate(`${sent.status}: ${causeOf(cause)}`, `${describe(request, bytes)}\n      -> ${sent.status} ${sent.text.slice(0, 120)}…`);
            } else if (problem) {
              const why =
                sent.status === 431 && headBytes(request) > NODE_HEAD_LIMIT
                  ? 'request head > 16 KiB: bare 431 from node'
                  : `${problem.replace(/ [a-z]+_[A-Za-z0-9]+/g, ' …').slice(0, 60)} (${sent.status})`;
              violate(
                `envelope: ${why}`,
                `${describe(request, bytes)}\n      -> ${sent.status} ${JSON.stringify(sent.headers['content-type'])} ${JSON.stringify(sent.text.slice(0, 200))}`,
              );
            }
          }
        }),
      );
      const before = done;
      done += requests.length;
      if (before < warmup && done >= warmup) {
        await sleep(500);
        rssAfterWarmup = server.rssMiB();
        gcAfterWarmup = await server.memoryAfterGc();
      }
      if (Math.floor(before / 2_000) !== Math.floor(done / 2_000)) ctx.log(`${done} sent, RSS ${server.rssMiB().toFixed(0)} MiB`);
      if (!server.alive()) break;
    }
    await sleep(1_000);
    const alive = server.alive();
    const rssEnd = alive ? server.rssMiB() : Number.NaN;
    const gcEnd = alive ? await server.memoryAfterGc() : { rss: Number.NaN, heapUsed: Number.NaN, external: Number.NaN };
    const health = await call(server.base, 'GET', '/healthz');

    const statuses = [...byStatus]
      .sort((x, y) => x[0] - y[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    ctx.figure('requests', done, `seed ${seed} (DRILL_SEED=${seed} replays it)`);
    ctx.figure('by status', statuses);
    ctx.figure(
      'operations covered',
      byOperation.size,
      [...byOperation]
        .map(([op, n]) => `${op} ${n}`)
        .join(', ')
        .slice(0, 60) + '…',
    );
    ctx.figure('latency p50 / p99', `${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(0)} ms`);
    if (cut.size) ctx.figure('cut or unsendable (not counted)', [...cut].map(([k, n]) => `${k}: ${n}`).join(', '));
    const count = (prefix: RegExp) => [...violations].filter(([k]) => prefix.test(k)).reduce((n, [, v]) => n + v.count, 0);
    ctx.check('5xx responses', count(/^5\d\d:/), count(/^5\d\d:/) === 0, '0');
    ctx.check('responses outside the envelope / without Request-Id', count(/^envelope/), count(/^envelope/) === 0, '0');
    ctx.check('requests never answered', count(/^no answer/), count(/^no answer/) === 0, '0');
    ctx.check('server alive, /healthz 200', alive && health.status === 200, alive && health.status === 200, 'true');
    const mib = (n: number) => `${n.toFixed(0)} MiB`;
    ctx.figure(
      `RSS after ${warmup} warm-up requests -> end`,
      `${mib(rssAfterWarmup)} -> ${mib(rssEnd)} (+${(rssEnd - rssAfterWarmup).toFixed(0)})`,
      'peaks from 1-3 MB bodies stay mapped',
    );
    ctx.figure('RSS after a full GC: warm-up -> end', `${mib(gcAfterWarmup.rss)} -> ${mib(gcEnd.rss)} (+${(gcEnd.rss - gcAfterWarmup.rss).toFixed(0)})`);
    const heapGrowth = gcEnd.heapUsed - gcAfterWarmup.heapUsed;
    ctx.check(
      'V8 heap used after a full GC: warm-up -> end',
      `${gcAfterWarmup.heapUsed.toFixed(1)} -> ${gcEnd.heapUsed.toFixed(1)} MiB (${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)})`,
      heapGrowth < HEAP_GROWTH_LIMIT_MIB,
      `growth < ${HEAP_GROWTH_LIMIT_MIB} MiB`,
    );
    for (const [kind, v] of [...violations].sort((x, y) => y[1].count - x[1].count)) ctx.note(`${v.count} x ${kind}\n   e.g. ${v.example}`);
  },
};
