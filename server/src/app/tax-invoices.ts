import { bangkokDateOf } from '../domain/bangkok-day.js';
import type { AuditContext } from '../domain/audit.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import { bangkokMonthOf, monthPeriod, previousMonth, type Month } from '../domain/statement.js';
import {
  assertMonthBegun,
  INVOICE_GRACE_MS,
  mayInvoice,
  SAMPLE_SELLER,
  sequenceOf,
  taxDetailsProblem,
  taxInvoiceOf,
  type TaxDetails,
  type TaxInvoice,
} from '../domain/tax-invoice.js';
import { recordAudit } from './audit.js';
import { assertMonth } from './reports.js';
import type { Services } from './services.js';

/** The operator records a merchant's tax id, address and branch for its tax invoices; false when there is no such merchant. */
export async function setTaxDetails(s: Services, merchantId: string, details: TaxDetails): Promise<boolean> {
  const problem = taxDetailsProblem(details);
  if (problem) throw new DomainError('invalid_parameters', `tax details: ${problem}.`);
  return s.uow.run((tx) => tx.taxInvoices.setTaxDetails(merchantId, { ...details, address: details.address.trim() }, s.clock.now()));
}

export interface IssueOutcome {
  issued: TaxInvoice[];
  /** Merchants with fees that got no invoice, and why (the operator fixes it and issues again). */
  skipped: { merchantId: string; reason: string }[];
}

type IssueOne = { issued: TaxInvoice } | { skipped: string } | { alreadyIssued: true };

/**
 * Issues the month's tax invoices: one per merchant with fees in it, after the month has ended in Bangkok (a test
 * merchant's specimen also for the month under way). Any number of issuers may run at once: each invoice takes its
 * number with the sequence's counter row locked, after checking no other issuer was first, in the transaction that
 * records it, so numbers run without gaps or duplicates. The PDF is rendered after that commits and kept once.
 */
export async function issueTaxInvoices(s: Services, month: Month, context: AuditContext, specimenOf?: Merchant): Promise<IssueOutcome> {
  assertMonth(month);
  assertMonthBegun(month, s.clock.now());
  const onlyMerchantId = specimenOf?.id;
  const seller = s.operator ?? (specimenOf?.mode === 'test' ? SAMPLE_SELLER : null);
  if (!seller) throw new Error("tax invoices need the operator's details: set OPERATOR_NAME, OPERATOR_ADDRESS and OPERATOR_TAX_ID (docs/operating.md).");
  const { start, end } = monthPeriod(month);
  const outcome: IssueOutcome = { issued: [], skipped: [] };
  for (const due of await s.uow.repos.taxInvoices.due(month, start, end)) {
    if (onlyMerchantId !== undefined && due.merchantId !== onlyMerchantId) continue;
    if (!mayInvoice(month, due.mode, s.clock.now())) {
      outcome.skipped.push({
        merchantId: due.merchantId,
        reason: `a live merchant is invoiced once ${month} has ended in Bangkok, ${INVOICE_GRACE_MS / 60_000} minutes after`,
      });
      continue;
    }
    const result: IssueOne = await s.uow.run(async (tx) => {
      const merchant = await tx.merchants.findById(due.merchantId);
      const details = await tx.taxInvoices.taxDetailsOf(due.merchantId);
      if (!merchant || !details) return { skipped: `no tax details (npm run cli -- merchants tax-details --merchant ${due.merchantId} ...)` };
      const issuedAt = s.clock.now();
      const sequence = sequenceOf(merchant.mode === 'test', bangkokDateOf(issuedAt));
      const last = await tx.taxInvoices.lockSequence(sequence);
      if (await tx.taxInvoices.findForMonth(merchant.id, month)) return { alreadyIssued: true };
      const totals = await tx.reports.totalsBetween(merchant.id, start, end);
      const invoice = taxInvoiceOf({
        id: s.ids.next('taxInvoice'),
        merchantId: merchant.id,
        mode: merchant.mode,
        month,
        number: last + 1,
        issuedAt,
        seller,
        buyer: { name: merchant.name, ...details },
        fees: totals.reduce((sum, t) => sum + t.fee, 0),
        vat: totals.reduce((sum, t) => sum + t.feeVat, 0),
      });
      await tx.taxInvoices.advanceSequence(sequence, last + 1);
      await tx.taxInvoices.insert(invoice);
      await recordAudit(tx, s, context, merchant.id, 'tax_invoice_issued', invoice.id, {
        serial: invoice.serial,
        month,
        specimen: invoice.specimen,
        total: invoice.total,
      });
      return { issued: invoice };
    });
    if ('issued' in result) outcome.issued.push(result.issued);
    if ('skipped' in result) outcome.skipped.push({ merchantId: due.merchantId, reason: result.skipped });
  }
  for (const invoice of outcome.issued) await keepPdf(s, invoice);
  return outcome;
}

/** Why a specimen could not be issued from the Reports page: each says what would make it possible. */
export type SpecimenRefusal = 'live_merchant' | 'no_fees' | 'no_tax_details';

/**
 * A test merchant's own specimen for the month under way, issued from the Reports page without the operator: the
 * operator's issue above, for this merchant alone, with the tax details its member gives when none are recorded
 * (a test merchant's only) and the sample seller when the deployment has no operator's details. A month's specimen is
 * issued once; asked again, it is the same one.
 */
export async function issueSpecimen(
  s: Services,
  merchant: Merchant,
  context: AuditContext,
  details?: TaxDetails,
): Promise<{ specimen: TaxInvoice } | { refused: SpecimenRefusal }> {
  if (merchant.mode !== 'test') return { refused: 'live_merchant' };
  if (details) await setTaxDetails(s, merchant.id, details);
  const month = bangkokMonthOf(s.clock.now());
  const { issued, skipped } = await issueTaxInvoices(s, month, context, merchant);
  const specimen = issued[0] ?? (await s.uow.repos.taxInvoices.findForMonth(merchant.id, month));
  if (specimen) return { specimen };
  return { refused: skipped.length > 0 ? 'no_tax_details' : 'no_fees' };
}

/** Renders an issued invoice's PDF outside any transaction and keeps it; a document kept already stays as it is. */
async function keepPdf(s: Services, invoice: TaxInvoice): Promise<void> {
  await s.uow.repos.taxInvoices.storePdf(invoice.id, await s.taxInvoicePdf.render(invoice));
}

const JOB_CONTEXT: AuditContext = { actor: { kind: 'operator' }, channel: 'job', clientAddress: null };

/**
 * The background job: once a month has ended in Bangkok, its invoices are issued, and any invoice whose PDF an issuer
 * did not get to keep is rendered. Safe with several instances (see issueTaxInvoices); a no-op without the operator's
 * details. Once a month's merchants all have theirs, this instance stops reading that month's ledger (a month of fee
 * entries) until the next month ends.
 */
export function taxInvoicingJob(s: Services): () => Promise<number> {
  let done: Month | null = null;
  return async () => {
    if (!s.operator) return 0;
    for (const invoice of await s.uow.repos.taxInvoices.withoutPdf(20)) await keepPdf(s, invoice);
    const month = previousMonth(bangkokMonthOf(s.clock.now()));
    if (month === done || !mayInvoice(month, 'live', s.clock.now())) return 0;
    const { issued, skipped } = await issueTaxInvoices(s, month, JOB_CONTEXT);
    if (skipped.length === 0) done = month;
    return issued.length;
  };
}

export const listTaxInvoices = (s: Services, merchant: Merchant, page: PageRequest): Promise<Page<TaxInvoice>> =>
  s.uow.repos.taxInvoices.list(merchant.id, page);

export async function retrieveTaxInvoice(s: Services, merchant: Merchant, id: string): Promise<TaxInvoice> {
  const invoice = await s.uow.repos.taxInvoices.findById(merchant.id, id);
  if (!invoice) throw notFound('tax_invoice_not_found', id);
  return invoice;
}

/** The invoice's PDF as kept when it was issued: the same bytes on every download. */
export async function taxInvoicePdf(s: Services, merchant: Merchant, id: string): Promise<{ invoice: TaxInvoice; pdf: Uint8Array }> {
  const invoice = await retrieveTaxInvoice(s, merchant, id);
  let pdf = await s.uow.repos.taxInvoices.pdfOf(invoice.id);
  if (!pdf) {
    await keepPdf(s, invoice); // its issuer stopped before keeping it; whichever render is kept first stays
    pdf = await s.uow.repos.taxInvoices.pdfOf(invoice.id);
  }
  if (!pdf) throw new Error(`the PDF of tax invoice ${invoice.id} was not kept`);
  return { invoice, pdf };
}
