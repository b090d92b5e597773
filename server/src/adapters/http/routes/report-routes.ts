import { Router } from 'express';
import { statementFor, settlementFile } from '../../../app/reports.js';
import type { Services } from '../../../app/services.js';
import { listTaxInvoices, retrieveTaxInvoice, taxInvoicePdf } from '../../../app/tax-invoices.js';
import { settlementCsv, statementCsv } from '../../csv/report-files.js';
import { enumParam, pageRequestOf } from '../list-query.js';
import { toListBody } from '../mappers.js';
import { toStatementBody, toTaxInvoiceBody } from '../report-mappers.js';
import { merchantOf } from '../request-context.js';
import { unknownWhenUnstorable } from './path-ids.js';

/** The accountant's documents: monthly statements, daily settlement files, tax invoices for the fees. */
export function reportRoutes(s: Services): Router {
  const router = Router();
  unknownWhenUnstorable(router, { tax_invoice_id: 'tax_invoice_not_found' });

  router.get('/reports/statements/:month', async (req, res) => {
    const format = enumParam(req, 'format', ['json', 'csv'] as const) ?? 'json';
    const statement = await statementFor(s, merchantOf(res), String(req.params.month));
    if (format === 'json') return void res.json(toStatementBody(statement));
    res.type('text/csv').send(statementCsv(statement));
  });

  router.get('/reports/settlements/:date', async (req, res) => {
    enumParam(req, 'format', ['csv'] as const);
    res.type('text/csv').send(settlementCsv(await settlementFile(s, merchantOf(res), String(req.params.date))));
  });

  router.get('/reports/tax-invoices', async (req, res) => {
    const page = pageRequestOf(req);
    res.json(toListBody('tax_invoices', await listTaxInvoices(s, merchantOf(res), page), page, toTaxInvoiceBody));
  });

  router.get('/reports/tax-invoices/:tax_invoice_id', async (req, res) => {
    res.json(toTaxInvoiceBody(await retrieveTaxInvoice(s, merchantOf(res), String(req.params.tax_invoice_id))));
  });

  router.get('/reports/tax-invoices/:tax_invoice_id/pdf', async (req, res) => {
    const { invoice, pdf } = await taxInvoicePdf(s, merchantOf(res), String(req.params.tax_invoice_id));
    res.type('application/pdf').setHeader('Content-Disposition', `attachment; filename="${invoice.serial}.pdf"`);
    res.send(Buffer.from(pdf));
  });

  return router;
}
