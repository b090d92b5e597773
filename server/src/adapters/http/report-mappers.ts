import type { components } from '@payment-qr/contract';
import type { MonthlyStatement } from '../../domain/statement.js';
import type { TaxInvoice, TaxParty } from '../../domain/tax-invoice.js';

type Schemas = components['schemas'];

export const toStatementBody = (s: MonthlyStatement): Schemas['MonthlyStatement'] => ({
  month: s.month,
  currency: s.currency,
  period_start: s.periodStart.toISOString(),
  period_end: s.periodEnd.toISOString(),
  opening_balance: s.openingBalance,
  payments: { count: s.payments.count, gross: s.payments.gross },
  fees: s.fees,
  fee_vat: s.feeVat,
  refunds: { count: s.refunds.count, amount: s.refunds.amount },
  withdrawals: { count: s.withdrawals.count, amount: s.withdrawals.amount },
  reversals: { count: s.reversals.count, amount: s.reversals.amount },
  closing_balance: s.closingBalance,
});

const toPartyBody = (p: TaxParty): Schemas['TaxParty'] => ({ name: p.name, address: p.address, tax_id: p.taxId, branch: p.branch });

export const toTaxInvoiceBody = (i: TaxInvoice): Schemas['TaxInvoice'] => ({
  tax_invoice_id: i.id,
  serial: i.serial,
  specimen: i.specimen,
  month: i.month,
  issue_date: i.issueDate,
  seller: toPartyBody(i.seller),
  buyer: toPartyBody(i.buyer),
  fees: i.fees,
  vat: i.vat,
  total: i.total,
  currency: i.currency,
  created_at: i.issuedAt.toISOString(),
});
