import type { RequestOptions, RequestSender } from '../http.js';
import { PageIterable, pageOf } from '../pagination.js';
import type { MonthlyStatement, TaxInvoice, TaxInvoiceListParams, components } from '../types.js';

/** Monthly statements in Asia/Bangkok, reconciling with the ledger to the satang. */
export class Statements {
  constructor(private readonly sender: RequestSender) {}

  /** The statement of a calendar month, `'2026-10'`. */
  retrieve(month: string, options?: RequestOptions): Promise<MonthlyStatement> {
    return this.sender.request<MonthlyStatement>({ method: 'GET', path: `reports/statements/${encodeURIComponent(month)}`, options });
  }

  /** The same statement as CSV text (`month,line,count,amount,currency`), amounts signed as they move the balance. */
  retrieveCsv(month: string, options?: RequestOptions): Promise<string> {
    return this.sender.request<string>({
      method: 'GET',
      path: `reports/statements/${encodeURIComponent(month)}`,
      query: { format: 'csv' },
      accept: 'text',
      options,
    });
  }
}

/** Daily settlement files: a Bangkok day's ledger entries for accounting imports. */
export class Settlements {
  constructor(private readonly sender: RequestSender) {}

  /** The CSV text of a calendar day, `'2026-10-31'`: the ledger CSV's columns plus the payment's `reference`. */
  retrieve(date: string, options?: RequestOptions): Promise<string> {
    return this.sender.request<string>({
      method: 'GET',
      path: `reports/settlements/${encodeURIComponent(date)}`,
      query: { format: 'csv' },
      accept: 'text',
      options,
    });
  }
}

/** Tax invoices (ใบกำกับภาษี) for the service's fees, frozen once issued. */
export class TaxInvoices {
  constructor(private readonly sender: RequestSender) {}

  /** Your tax invoices, newest first: `for await` over every one, or `.page()` for one page with `total`. */
  list(params: TaxInvoiceListParams = {}, options?: RequestOptions): PageIterable<TaxInvoice> {
    const { limit, offset } = params;
    return new PageIterable(
      async (page) => {
        const body = await this.sender.request<components['schemas']['TaxInvoiceList']>({ method: 'GET', path: 'reports/tax-invoices', query: page, options });
        return pageOf(body.tax_invoices, body);
      },
      (invoice) => invoice.tax_invoice_id,
      { limit, offset },
    );
  }

  retrieve(taxInvoiceId: string, options?: RequestOptions): Promise<TaxInvoice> {
    return this.sender.request<TaxInvoice>({ method: 'GET', path: `reports/tax-invoices/${encodeURIComponent(taxInvoiceId)}`, options });
  }

  /** The PDF as issued: the same bytes on every download. */
  pdf(taxInvoiceId: string, options?: RequestOptions): Promise<Uint8Array> {
    return this.sender.request<Uint8Array>({ method: 'GET', path: `reports/tax-invoices/${encodeURIComponent(taxInvoiceId)}/pdf`, accept: 'bytes', options });
  }
}

/** The accountant's documents. */
export class Reports {
  readonly statements: Statements;
  readonly settlements: Settlements;
  readonly taxInvoices: TaxInvoices;

  constructor(sender: RequestSender) {
    this.statements = new Statements(sender);
    this.settlements = new Settlements(sender);
    this.taxInvoices = new TaxInvoices(sender);
  }
}
