/**
 * 1,000 open checkout pages on one server: what they cost. A server (child process, PostgreSQL scratch database)
 * gets one status stream (GET /Thai/pay/{id}/events) per page, each for its own QR code, from 127.0.0.2 and up (20
 * per address, as many as one address may open); then 100 of the payments complete. Reports the server's memory after
 * a full GC and its database connections, before and with the pages open, and how long a completion takes to reach
 * its page. Run: npm run bench:checkout [-- --pages N] [--embedded]
 * (--embedded: the server on its in-memory PGlite instead, which has no connections to count).
 */
import { get } from 'node:http';
import pg from 'pg';
import { createContext, machine, ms, percentile, printTable, waitFor } from '../drills/lib/harness.js';
import { call, createTestMerchant, scratchDatabase, startServer, type ServiceProcess } from '../drills/lib/service.js';

const pagesArg = process.argv.indexOf('--pages');
const PAGES = pagesArg > 0 ? Number(process.argv[pagesArg + 1]) : 1_000;
const EMBEDDED = process.argv.includes('--embedded');
const COMPLETED = Math.min(100, PAGES);
const POOL_MAX = 10; // the server's default knex pool

interface Page {
  qrCodeId: string;
  paymentId: string;
  statuses: string[];
  changedAt: number | null;
  controller: AbortController;
}

/** One client address holds at most this many streams (the server's MAX_STREAMS_PER_ADDRESS). */
const PAGES_PER_ADDRESS = 20;

/** Reads one page's stream as EventSource would, noting each status and when it changed; pages spread over loopback addresses. */
function follow(base: string, page: Page, index: number, onFirst: () => void): Promise<void> {
  const localAddress = `127.0.0.${2 + Math.floor(index / PAGES_PER_ADDRESS)}`;
  return new Promise((resolve) => {
    const request = get(`${base}/Thai/pay/${page.qrCodeId}/events`, { localAddress, signal: page.controller.signal }, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const data = /^data: (.*)$/m.exec(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          if (!data) continue;
          page.statuses.push((JSON.parse(data[1]!) as { status: string }).status);
          if (page.statuses.length === 1) onFirst();
          else page.changedAt = performance.now();
        }
      });
      response.on('end', resolve);
      response.on('error', () => resolve()); // aborted at the end
    });
    request.on('error', () => resolve());
  });
}

/** The server's connections to its database: all, and those busy (running a query or inside a transaction). */
async function connectionsTo(url: string): Promise<{ all: number; busy: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT count(*)::int AS all, count(*) FILTER (WHERE state <> 'idle')::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows[0] as { all: number; busy: number };
  } finally {
    await client.end();
  }
}

async function sandboxMerchantOf(server: ServiceProcess): Promise<{ apiKey: string }> {
  // Output chunks may split a line: read it as one string.
  const printed = await waitFor(() => /Bearer (sk_test_[\w-]+)'/.exec(server.child.output().replaceAll('\n', '')), 30_000);
  if (!printed.value) throw new Error(`no sandbox key printed:\n${server.child.output()}`);
  return { apiKey: printed.value[1]! };
}

async function main(): Promise<void> {
  const ctx = createContext('checkout-streams', false);
  try {
    const db = EMBEDDED ? null : await scratchDatabase(ctx);
    // An empty DATABASE_URL means the embedded database; its first start creates a sandbox merchant and prints the key.
    const server = await startServer(ctx, {
      databaseUrl: db?.url ?? '',
      memoryProbe: true,
      env: { WEBHOOK_DISPATCHER: 'off', ...(db ? {} : { DATA_DIR: 'memory://' }) },
    });
    const merchant = db ? await createTestMerchant(db.url) : await sandboxMerchantOf(server);
    ctx.log(`server up; creating ${PAGES} QR codes`);
    const pages: Page[] = [];
    for (let i = 0; i < PAGES; i++) {
      const reply = await call(server.base, 'POST', '/Thai/v1/qr-codes', { apiKey: merchant.apiKey, body: { amount: 10_000 + i, currency: 'THB' } });
      if (reply.status !== 200) throw new Error(`QR code ${i}: ${reply.status} ${reply.text}`);
      pages.push({ qrCodeId: reply.body.qr_code_id, paymentId: reply.body.payment_id, statuses: [], changedAt: null, controller: new AbortController() });
    }
    const before = await server.memoryAfterGc();
    const connectionsBefore = db ? await connectionsTo(db.url) : null;

    ctx.log(`opening ${PAGES} status streams`);
    let opened = 0;
    const streams = pages.map((page, i) => follow(server.base, page, i, () => opened++));
    const open = await waitFor(() => opened === PAGES, 60_000);
    ctx.check('pages that got their first status', opened, open.ok, `${PAGES}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = await server.memoryAfterGc();
    const connectionsDuring = db ? await connectionsTo(db.url) : null;

    ctx.log(`completing ${COMPLETED} payments`);
    const latencies: number[] = [];
    const completed = pages.slice(0, COMPLETED);
    for (const page of completed) {
      const sent = performance.now();
      const reply = await call(server.base, 'POST', `/Thai/v1/test/payments/${page.paymentId}/succeed`, { apiKey: merchant.apiKey });
      if (reply.status !== 200) throw new Error(`completion: ${reply.status} ${reply.text}`);
      const seen = await waitFor(() => page.changedAt !== null, 10_000, 1);
      if (seen.ok) latencies.push(page.changedAt! - sent);
    }
    const updated = completed.filter((page) => page.statuses.at(-1) === 'succeeded').length;
    const untouched = pages.slice(COMPLETED).every((page) => page.statuses.length === 1);

    ctx.figure('open pages (status streams)', PAGES);
    ctx.figure('server RSS after GC, before / with pages', `${before.rss.toFixed(0)} / ${during.rss.toFixed(0)} MiB`);
    ctx.figure('server heap used after GC, before / with pages', `${before.heapUsed.toFixed(1)} / ${during.heapUsed.toFixed(1)} MiB`);
    ctx.figure('memory per open page (RSS delta / pages)', `${(((during.rss - before.rss) * 1024) / PAGES).toFixed(1)} KiB`);
    if (connectionsBefore && connectionsDuring) {
      ctx.check(
        'database connections, before / with pages',
        `${connectionsBefore.all} / ${connectionsDuring.all}`,
        connectionsDuring.all <= POOL_MAX + 1,
        `<= ${POOL_MAX + 1}: the pool and one listener`,
      );
      ctx.check('connections busy while the pages wait', connectionsDuring.busy, connectionsDuring.busy === 0, '0');
    }
    ctx.check('completed payments whose page turned succeeded', `${updated}/${COMPLETED}`, updated === COMPLETED, `${COMPLETED}/${COMPLETED}`);
    ctx.check('other pages left alone', untouched ? 'yes' : 'no', untouched, 'yes');
    ctx.figure('completion answered -> page told, p50 / p99', `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))}`);

    for (const page of pages) page.controller.abort();
    await Promise.all(streams);
    printTable(`checkout status streams on ${EMBEDDED ? 'PGlite (embedded)' : 'PostgreSQL'} (${machine()})`, ctx.rows);
    process.exitCode = ctx.rows.some((row) => row.ok === false) ? 1 : 0;
  } finally {
    await ctx.cleanup();
  }
}

await main();
