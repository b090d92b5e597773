import { beforeAll, describe, expect, it } from 'vitest';
import { PRINT_BOUNDS } from '../../src/adapters/documents/bounded-printer.js';
import { bangkokMonthOf, previousMonth } from '../../src/domain/statement.js';
import { dashboardMember, type DashboardMember } from '../support/dashboard.js';
import { scrape, valueOf } from '../support/metrics.js';
import { usingTestServer } from '../support/test-server.js';

/**
 * DECISIONS, "Documents are rendered within bounds": a viewer's burst of statement downloads (60 at once took the
 * service from 118 MiB to 6.9 GiB, a Chromium page each) never opens more than 2 pages; past a short queue the
 * answer is 503 in the envelope with Retry-After. A closed month's statement PDF is rendered once and kept. The
 * printer's load is read from /metrics (pqr_pdf_pages, pqr_pdf_renders_total).
 */
const { server } = usingTestServer({ env: { METRICS: 'on' }, backgroundJobs: false });
let viewer: DashboardMember;
let cookie: string;

const printerLoad = async () => {
  const families = await scrape(`${server.url}/metrics`);
  return {
    mostAtOnce: valueOf(families, 'pqr_pdf_pages', { state: 'most_at_once' }),
    printed: valueOf(families, 'pqr_pdf_renders_total', { outcome: 'printed' }),
    refused: valueOf(families, 'pqr_pdf_renders_total', { outcome: 'refused' }),
  };
};

async function download(month: string): Promise<{ status: number; type: string | null; retryAfter: string | null; body: Buffer }> {
  const res = await fetch(`${server.url}/dashboard/reports/statements/${month}.pdf`, { headers: { cookie }, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  viewer = await dashboardMember(server, { role: 'viewer' }); // the least role that may download statements
  cookie = [...viewer.client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
});

describe("a closed month's statement PDF", () => {
  it('is rendered once and kept: the same bytes on every download', async () => {
    const closed = previousMonth(previousMonth(bangkokMonthOf(server.running.runtime.services.clock.now())));
    const before = await printerLoad();
    const first = await download(closed);
    const second = await download(closed);
    expect([first.status, first.type, second.status]).toEqual([200, 'application/pdf', 200]);
    expect(first.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(second.body.equals(first.body)).toBe(true);
    expect((await printerLoad()).printed - before.printed).toBe(1);
  });
});

describe('60 statement downloads at once', () => {
  it(`open at most ${PRINT_BOUNDS.atOnce} pages; every answer is a PDF or a 503 in the envelope with Retry-After`, async () => {
    const month = bangkokMonthOf(server.running.runtime.services.clock.now()); // under way: rendered on every download
    const before = await printerLoad();
    const answers = await Promise.all(Array.from({ length: 60 }, () => download(month)));
    const pdfs = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    expect(pdfs.length + refused.length).toBe(60);
    for (const pdf of pdfs) {
      expect(pdf.type).toBe('application/pdf');
      expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    }
    for (const answer of refused) {
      expect(answer.type).toContain('application/json');
      expect(JSON.parse(answer.body.toString()).error).toMatchObject({ code: 'service_unavailable', type: 'api_error' });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    const after = await printerLoad();
    // The burst outran the printer and its queue (10 places), and the printer held its bound all along.
    expect(refused.length).toBeGreaterThan(0);
    expect(pdfs.length).toBeGreaterThanOrEqual(PRINT_BOUNDS.atOnce);
    expect(after.refused - before.refused).toBe(refused.length);
    expect(after.printed - before.printed).toBe(pdfs.length);
    expect(after.mostAtOnce).toBeLessThanOrEqual(PRINT_BOUNDS.atOnce);
    expect(after.mostAtOnce).toBe(PRINT_BOUNDS.atOnce);
  }, 180_000);
});
