import { Router, type Request, type Response } from 'express';
import { statementFor, statementPdf, settlementFile } from '../../app/reports.js';
import type { Services } from '../../app/services.js';
import { issueSpecimen, listTaxInvoices, taxInvoicePdf } from '../../app/tax-invoices.js';
import { DocumentsBusy } from '../../ports/documents.js';
import { bangkokDateOf } from '../../domain/bangkok-day.js';
import { bangkokMonthOf, isMonth, statementLines, type MonthlyStatement } from '../../domain/statement.js';
import { HEAD_OFFICE, taxDetailsProblem, type TaxDetails } from '../../domain/tax-invoice.js';
import { settlementCsv, statementCsv } from '../csv/report-files.js';
import { formatBaht, formatCalendarDate, formatDateTime, formatMonth } from '../pages/people-formats.js';
import { commonView, DASHBOARD_BASE, renderTemplate, sendPage, sendRefusal } from './layout.js';
import { fill } from './messages.js';
import { problemOf } from './problems.js';
import { signedIn } from './request-context.js';
import { requireAbility } from './session.js';

const TAX_INVOICES_SHOWN = 24;

/** A file to save, not a page: the browser keeps the name given. */
function download(res: Response, type: string, name: string, content: string | Uint8Array): void {
  res.type(type).setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.send(typeof content === 'string' ? content : Buffer.from(content));
}

/** The test merchant's tax details as its member typed them on the specimen form, or none when the form did not ask. */
function taxDetailsFrom(body: Record<string, unknown>): TaxDetails | undefined {
  if (typeof body.tax_id !== 'string') return undefined;
  const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
  return { taxId: text('tax_id'), address: text('address'), branch: text('branch') || HEAD_OFFICE };
}

const taxInvoiceHref = (id: string) => `${DASHBOARD_BASE}/reports/tax-invoices/${id}.pdf`;

/** The month asked for (`?month=YYYY-MM`), else the month under way in Bangkok. */
const monthAsked = (req: Request, now: Date): string =>
  typeof req.query.month === 'string' && isMonth(req.query.month) ? req.query.month : bangkokMonthOf(now);

/**
 * Reports, for owners, admins and viewers (`reports:read`): a month's statement on the page with its CSV, its tax
 * invoices' PDFs as they were kept when issued (a test merchant issues its specimen here), and a day's settlement
 * file. The same use cases as the API's.
 */
export function reportRoutes(s: Services): Router {
  const router = Router();
  router.use('/reports', requireAbility('reports:read'));

  /** The page, with what a specimen's issue said (a notice, or why not). */
  async function reportsPage(req: Request, res: Response, extra: { notice?: { text: string; href: string }; error?: string; status?: number } = {}) {
    const { t, lang } = commonView(req);
    const merchant = signedIn(req).merchant;
    const month = monthAsked(req, s.clock.now());
    const statement: MonthlyStatement = await statementFor(s, merchant, month);
    const invoices = await listTaxInvoices(s, merchant, { limit: TAX_INVOICES_SHOWN, offset: 0 });
    const lineNames = t.reports as Record<string, string>;
    const body = renderTemplate(req, 'reports', {
      notice: extra.notice ?? null,
      error: extra.error ?? null,
      month,
      monthName: formatMonth(lang, month),
      today: bangkokDateOf(s.clock.now()),
      lines: statementLines(statement).map((line) => ({
        name: lineNames[line.line] ?? line.line,
        key: line.line,
        count: line.count,
        amount: formatBaht(line.amount),
        total: line.line === 'opening_balance' || line.line === 'closing_balance',
      })),
      csvHref: `${DASHBOARD_BASE}/reports/statements/${month}.csv`,
      pdfHref: `${DASHBOARD_BASE}/reports/statements/${month}.pdf`,
      specimenForm: merchant.mode === 'test' ? { needsTaxDetails: !(await s.uow.repos.taxInvoices.taxDetailsOf(merchant.id)) } : null,
      invoices: invoices.items.map((invoice) => ({
        id: invoice.id,
        serial: invoice.serial,
        monthName: formatMonth(lang, invoice.month),
        issued: formatCalendarDate(lang, invoice.issueDate),
        total: formatBaht(invoice.total),
        specimen: invoice.specimen,
        href: taxInvoiceHref(invoice.id),
        created: formatDateTime(lang, invoice.issuedAt),
      })),
    });
    sendPage(req, res, { title: t.reports.title, active: 'reports', body, status: extra.status });
  }

  router.get('/reports', (req, res) => reportsPage(req, res));

  // A test merchant's specimen of this month's tax invoice, issued here rather than by the operator's CLI.
  router.post('/reports/specimen', async (req, res) => {
    const { t } = commonView(req);
    const context = signedIn(req);
    const details = taxDetailsFrom(req.body as Record<string, unknown>);
    const problem = details && taxDetailsProblem(details);
    if (problem) return reportsPage(req, res, { error: `${t.specimens.invalid_tax_details} (${problem})`, status: 422 });
    const outcome = await issueSpecimen(s, context.merchant, context.audit, details);
    if ('specimen' in outcome) {
      const notice = { text: fill(t.specimens.issued, { serial: outcome.specimen.serial }), href: taxInvoiceHref(outcome.specimen.id) };
      return reportsPage(req, res, { notice });
    }
    if (outcome.refused === 'live_merchant') return sendRefusal(req, res, 403, 'forbidden');
    await reportsPage(req, res, { error: t.specimens[outcome.refused], status: 422 });
  });

  router.get('/reports/statements/:month.csv', async (req, res) => {
    const month = String(req.params.month);
    if (!isMonth(month)) return sendRefusal(req, res, 404, 'notFound');
    download(res, 'text/csv', `statement-${month}.csv`, statementCsv(await statementFor(s, signedIn(req).merchant, month)));
  });

  router.get('/reports/statements/:month.pdf', async (req, res) => {
    const month = String(req.params.month);
    if (!isMonth(month)) return sendRefusal(req, res, 404, 'notFound');
    download(res, 'application/pdf', `statement-${month}.pdf`, await statementPdf(s, signedIn(req).merchant, month));
  });

  router.get('/reports/settlements', async (req, res) => {
    const date = typeof req.query.date === 'string' ? req.query.date : '';
    try {
      const lines = await settlementFile(s, signedIn(req).merchant, date);
      download(res, 'text/csv', `settlement-${date}.csv`, settlementCsv(lines));
    } catch (error) {
      problemOf(req, error); // anything but a date to correct goes on to the error page
      sendRefusal(req, res, 404, 'notFound');
    }
  });

  router.get('/reports/tax-invoices/:taxInvoiceId.pdf', async (req, res) => {
    const id = String(req.params.taxInvoiceId);
    if (!/^\w{1,100}$/.test(id)) return sendRefusal(req, res, 404, 'notFound');
    try {
      const { invoice, pdf } = await taxInvoicePdf(s, signedIn(req).merchant, id);
      download(res, 'application/pdf', `${invoice.serial}.pdf`, pdf);
    } catch (error) {
      if (error instanceof DocumentsBusy) throw error; // 503 with Retry-After (./dashboard-routes.ts)
      problemOf(req, error);
      sendRefusal(req, res, 404, 'notFound');
    }
  });

  return router;
}
