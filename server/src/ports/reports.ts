import type { LedgerEntry } from '../domain/balance.js';
import type { LedgerFilter } from './ledger.js';
import type { Mode } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import type { LedgerTotals, Month } from '../domain/statement.js';
import type { InvoiceSequence, TaxDetails, TaxInvoice } from '../domain/tax-invoice.js';

/** A ledger entry with the `reference` of the payment it concerns (a refund's: its payment's). */
export interface SettlementLine extends LedgerEntry {
  reference: string | null;
}

/** Reads of the ledger for statements and settlement files; `from` inclusive, `to` exclusive. */
export interface ReportRepository {
  /** The sum of the merchant's ledger entries (`net`) created before `before`: the balance then, pending included. */
  balanceBefore(merchantId: string, before: Date): Promise<number>;
  /** The merchant's entries created in [from, to), summed per type. */
  totalsBetween(merchantId: string, from: Date, to: Date): Promise<LedgerTotals[]>;
  /** The merchant's entries created in [from, to), oldest first, with their payment's reference. */
  linesBetween(merchantId: string, from: Date, to: Date): Promise<SettlementLine[]>;
  /** How many entries match the filter, counting no further than `atMost`. */
  countMatching(merchantId: string, filter: LedgerFilter, atMost: number): Promise<number>;
  /** The next `limit` entries matching the filter after `after` (oldest first, ties by id), with their payment's reference. */
  linesMatching(merchantId: string, filter: LedgerFilter, after: SettlementLine | null, limit: number): Promise<SettlementLine[]>;
  /** A closed month's statement PDF as kept at its first download; null before. */
  keptStatementPdf(merchantId: string, month: Month): Promise<Uint8Array | null>;
  /** Keeps a closed month's statement PDF; one kept already stays as it is (whichever render is kept first stays). */
  keepStatementPdf(merchantId: string, month: Month, pdf: Uint8Array, at: Date): Promise<void>;
}

/** A merchant with fees in a month and no tax invoice for it yet. */
export interface InvoiceDue {
  merchantId: string;
  mode: Mode;
}

export interface TaxInvoiceRepository {
  setTaxDetails(merchantId: string, details: TaxDetails, at: Date): Promise<boolean>;
  taxDetailsOf(merchantId: string): Promise<TaxDetails | null>;
  /** Merchants whose entries created in [from, to) carry fees, without an invoice for `month`. */
  due(month: Month, from: Date, to: Date): Promise<InvoiceDue[]>;
  /**
   * The last number taken in the sequence (0 for none), its counter row locked until the transaction ends: concurrent
   * issuers queue on it, and an issue that rolls back leaves no gap.
   */
  lockSequence(sequence: InvoiceSequence): Promise<number>;
  advanceSequence(sequence: InvoiceSequence, lastNumber: number): Promise<void>;
  findForMonth(merchantId: string, month: Month): Promise<TaxInvoice | null>;
  insert(invoice: TaxInvoice): Promise<void>;
  findById(merchantId: string, id: string): Promise<TaxInvoice | null>;
  list(merchantId: string, page: PageRequest): Promise<Page<TaxInvoice>>;
  /** Keeps the rendered document, once: a second render never replaces the first. */
  storePdf(id: string, pdf: Uint8Array): Promise<void>;
  pdfOf(id: string): Promise<Uint8Array | null>;
  /** Issued invoices whose document was not kept yet (an issuer stopped between the two steps). */
  withoutPdf(limit: number): Promise<TaxInvoice[]>;
}
