import type { TaxInvoice } from '../domain/tax-invoice.js';

/** Turns a tax invoice into its PDF (Thai shaped, its font embedded). */
export interface TaxInvoiceRenderer {
  render(invoice: TaxInvoice): Promise<Uint8Array>;
}
