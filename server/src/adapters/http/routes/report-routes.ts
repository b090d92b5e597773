import { Router } from 'express';
import { statementFor, settlementFile } from '../../../app/reports.js';
import type { Services } from '../../../app/services.js';
import { listTaxInvoices, retrieveTaxInvoice, taxInvoicePdf } from '../../../app/tax-invoices.js';
import { statementLines } from '../../../domain/statement.js';
import { csvFile } from '../../csv/csv-file.js';
import { toBalanceTransactionBody } from '../balance-mappers.js';
import { enumParam, pageRequestOf } from '../list-query.js';
import { toListBody } from '../mappers.js';
import { toStatementBody, toTaxInvoiceBody } from '../report-mappers.js';
import { merchantOf } from '../request-context.js';
import { LEDGER_CSV_COLUMNS } from './balance-routes.js';
import { unknownWhenUnstorable } from './path-ids.js';

const SETTLEMENT_COLUMNS = [...LEDGER_CSV_COLUMNS, 'reference'] as const;

/** The accountant's documents: monthly statements, daily settlement files, tax invoices for the fees. */
export function reportRoutes(s: Services): Router {
  const router = Router();
  unknownWhenUnstorable(router, { tax_invoice_id: 'tax_invoice_not_found' });

  router.get('/reports/statements/:month', async (req, res) => {
    const format = enumParam(req, 'format', ['json', 'csv'] as const) ?? 'json';
    const statement = await statementFor(s, merchantOf(res), String(req.params.month));
    if (format === 'json') return void res.json(toStatementBody(statement));
    const rows = statementLines(statement).map((l) => [statement.month, l.line, l.count, l.amount, statement.currency]);
    res.type('text/csv').send(csvFile(['month', 'line', 'count', 'amount', 'currency'], rows, { byteOrderMark: true }));
  });

  router.get('/reports/settlements/:date', async (req, res) => {
    enumParam(req, 'format', ['csv'] as const);
    const lines = await settlementFile(s, merchantOf(res), String(req.params.date));
    const rows = lines.map((line) => {
      const entry: Record<string, string | number | null> = { ...toBalanceTransactionBody(line), reference: line.reference };
      return SETTLEMENT_COLUMNS.map((column) => entry[column] ?? null);
    });
    res.type('text/csv').send(csvFile(SETTLEMENT_COLUMNS, rows, { byteOrderMark: true }));
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
