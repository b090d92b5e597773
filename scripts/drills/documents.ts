/**
 * documents: a viewer downloads the month's statement PDF 60 times at once (each a render: the month is under way).
 * Guarantees (DECISIONS, "Documents are rendered within bounds"): the memory of the service's processes, the server
 * and the Chromium it started, stays under 1.5 GiB; every answer is a PDF or a 503 in the envelope with Retry-After;
 * the printer never had more than 2 pages open (its /metrics). Memory is the sum of the RSS of the server and every
 * process under it (shared pages counted once per process: an upper bound), sampled every 50 ms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dashboardCookie } from './lib/dashboard-session.js';
import type { Drill } from './lib/harness.js';
import { createTestMerchant, scratchDatabase, startServer } from './lib/service.js';

const DOWNLOADS = 60;
const LIMIT_MIB = 1_536;

/** The pid and every process under it, from /proc (Linux). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}

/** The processes' resident memory, summed, in MiB. */
function treeRssMiB(root: number): { mib: number; processes: number } {
  let kib = 0;
  const tree = processTree(root);
  for (const pid of tree) {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return { mib: kib / 1024, processes: tree.length };
}

export const documentsDrill: Drill = {
  name: 'documents',
  summary: '60 statement PDF downloads at once: under 1.5 GiB for the server and its browser, every answer a PDF or a 503',
  timeLimitMs: () => 300_000,
  async run(ctx) {
    const db = await scratchDatabase(ctx);
    const merchant = await createTestMerchant(db.url, 'ร้านเอกสาร');
    const server = await startServer(ctx, { databaseUrl: db.url, env: { METRICS: 'on' } });
    const cookie = await dashboardCookie(db.url, merchant.id, 'viewer');
    const month = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 7); // Bangkok's month under way
    const download = async () => {
      const res = await fetch(`${server.base}/dashboard/reports/statements/${month}.pdf`, { headers: { cookie } });
      const body = Buffer.from(await res.arrayBuffer());
      return { status: res.status, type: res.headers.get('content-type') ?? '', retryAfter: res.headers.get('retry-after'), body };
    };

    const idle = treeRssMiB(server.pid());
    ctx.figure('server alone, before any document', `${idle.mib.toFixed(0)} MiB`, `${idle.processes} process(es)`);
    const first = await download(); // starts the browser
    if (first.status !== 200) throw new Error(`the first download answered ${first.status}`);
    const warm = treeRssMiB(server.pid());
    ctx.figure('server + browser after one download', `${warm.mib.toFixed(0)} MiB`, `${warm.processes} processes`);

    let peak = warm;
    const sampler = setInterval(() => {
      const now = treeRssMiB(server.pid());
      if (now.mib > peak.mib) peak = now;
    }, 50);
    const answers = await Promise.all(Array.from({ length: DOWNLOADS }, download));
    clearInterval(sampler);

    const pdfs = answers.filter((a) => a.status === 200 && a.type === 'application/pdf' && a.body.subarray(0, 5).toString() === '%PDF-');
    const refused = answers.filter((a) => {
      if (a.status !== 503 || !a.type.includes('application/json') || Number(a.retryAfter) < 1) return false;
      return (JSON.parse(a.body.toString()) as { error?: { code?: string } }).error?.code === 'service_unavailable';
    });
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    const mostAtOnce = Number(/pqr_pdf_pages\{state="most_at_once"\} (\d+)/.exec(metrics)?.[1] ?? NaN);

    ctx.figure('answers: PDF / 503', `${pdfs.length} / ${refused.length}`, `${DOWNLOADS} at once`);
    ctx.check(
      'every answer a PDF or a 503 in the envelope with Retry-After',
      pdfs.length + refused.length,
      pdfs.length + refused.length === DOWNLOADS,
      String(DOWNLOADS),
    );
    ctx.check('pages open at once in the browser, at most', mostAtOnce, mostAtOnce <= 2, '<= 2');
    ctx.check('server + browser memory at its peak (RSS summed)', `${peak.mib.toFixed(0)} MiB`, peak.mib < LIMIT_MIB, `< ${LIMIT_MIB} MiB`);
    ctx.figure('processes at the peak', peak.processes);
  },
};
