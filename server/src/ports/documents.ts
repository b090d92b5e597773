import { DomainError } from '../domain/errors.js';
import type { TaxInvoice } from '../domain/tax-invoice.js';
import type { MonthlyStatement } from '../domain/statement.js';

/** Turns a tax invoice into its PDF (Thai shaped, its font embedded). */
export interface TaxInvoiceRenderer {
  render(invoice: TaxInvoice): Promise<Uint8Array>;
}

/** Turns a merchant's monthly statement into a PDF (Thai shaped, its font embedded). */
export interface StatementRenderer {
  /** `asOf`: when the month is still in progress, the instant its figures were read (the document says "as of" it). */
  render(statement: MonthlyStatement, merchantName: string, asOf?: Date | null): Promise<Uint8Array>;
}

/**
 * The documents being printed are at their bound (DECISIONS, "Documents are rendered within bounds"): 503
 * service_unavailable, with `Retry-After` from `retryAfterSeconds`, never another browser.
 */
export class DocumentsBusy extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('service_unavailable', `Too many documents are being printed right now. Retry after ${retryAfterSeconds} s (Retry-After).`);
  }
}
