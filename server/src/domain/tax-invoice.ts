import { bangkokDateOf } from './bangkok-day.js';
import { DomainError } from './errors.js';
import type { Mode } from './merchant.js';
import type { Currency, Satang } from './money.js';
import { bangkokMonthOf, monthPeriod, type Month } from './statement.js';

/** A party on a tax invoice as Revenue Code section 86/4 names it: name, address, 13-digit tax id, 5-digit branch. */
export interface TaxParty {
  name: string;
  address: string;
  taxId: string;
  /** 00000 is the head office. */
  branch: string;
}

/** What the operator records of a merchant for its tax invoices (its name is the merchant's). */
export interface TaxDetails {
  taxId: string;
  address: string;
  branch: string;
}

export const HEAD_OFFICE = '00000';

/**
 * The seller printed on a test merchant's specimen when the deployment has no operator's details (OPERATOR_NAME, ...):
 * a specimen is not a tax invoice, so a sandbox shows the whole document without the operator.
 */
export const SAMPLE_SELLER: TaxParty = {
  name: 'ผู้ให้บริการตัวอย่าง / Sample operator (OPERATOR_NAME not set)',
  address: 'ที่อยู่ของผู้ให้บริการ / The operator’s address (OPERATOR_ADDRESS not set)',
  taxId: '0000000000000',
  branch: HEAD_OFFICE,
};

/**
 * A tax invoice for the fees of one merchant's month, frozen when issued: the parties as they were then, the fees and
 * the VAT charged on them (the ledger's own, per payment), and the total. A specimen is a test merchant's, not a tax invoice.
 */
export interface TaxInvoice {
  id: string;
  merchantId: string;
  serial: string;
  specimen: boolean;
  month: Month;
  /** The day of issue in Bangkok, YYYY-MM-DD. */
  issueDate: string;
  issuedAt: Date;
  seller: TaxParty;
  buyer: TaxParty;
  fees: Satang;
  vat: Satang;
  total: Satang;
  currency: Currency;
}

/** A Thai tax id: 13 digits whose last is the check digit of the first 12 (weights 13 down to 2, mod 11). */
export function isValidTaxId(text: string): boolean {
  if (!/^\d{13}$/.test(text)) return false;
  const digits = [...text].map(Number);
  const sum = digits.slice(0, 12).reduce((total, digit, i) => total + digit * (13 - i), 0);
  return (11 - (sum % 11)) % 10 === digits[12];
}

export const isValidBranch = (text: string): boolean => /^\d{5}$/.test(text);

/** Why tax details cannot be used, or null when they can. */
export function taxDetailsProblem(details: TaxDetails): string | null {
  if (!isValidTaxId(details.taxId)) return `tax id '${details.taxId}' must be 13 digits with a valid check digit`;
  if (!isValidBranch(details.branch)) return `branch '${details.branch}' must be 5 digits (00000: head office)`;
  const address = details.address.trim();
  if (address.length === 0 || address.length > 300) return 'address must be 1 to 300 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(address)) return 'address must not hold control characters';
  return null;
}

/** Invoices and specimens run in sequences of their own, one per year of issue. */
export interface InvoiceSequence {
  prefix: 'TIV' | 'TEST-TIV';
  year: number;
}

export const sequenceOf = (specimen: boolean, issueDate: string): InvoiceSequence => ({
  prefix: specimen ? 'TEST-TIV' : 'TIV',
  year: Number(issueDate.slice(0, 4)),
});

/** TIV-2026-000001: the sequence, then the number within it. */
export const serialOf = (sequence: InvoiceSequence, number: number): string => `${sequence.prefix}-${sequence.year}-${String(number).padStart(6, '0')}`;

/**
 * A payment credited in a month's last instant commits a moment after it ends: a month is invoiced only this long after
 * its end, so that no fee of it can still arrive once its invoice is frozen.
 */
export const INVOICE_GRACE_MS = 10 * 60_000;

/**
 * A month is invoiced once it has ended in Bangkok (and the grace has passed); a test merchant's specimen may also be
 * made for the month under way, so the flow can be tried in the sandbox. Never a month still to come.
 */
export function mayInvoice(month: Month, mode: Mode, now: Date): boolean {
  const ended = monthPeriod(month).end.getTime() + INVOICE_GRACE_MS <= now.getTime();
  return ended || (mode === 'test' && month === bangkokMonthOf(now));
}

/** Tax invoices are for months that have begun (a specimen's may be under way); a month still to come is refused. */
export function assertMonthBegun(month: Month, now: Date): void {
  if (monthPeriod(month).start.getTime() > now.getTime())
    throw new DomainError('invalid_parameters', `${month} has not begun in Asia/Bangkok: tax invoices are for months that have ended.`, 'month');
}

/** The invoice of a month's fees as charged: the VAT is the sum charged with each payment's fee. */
export function taxInvoiceOf(request: {
  id: string;
  merchantId: string;
  mode: Mode;
  month: Month;
  number: number;
  issuedAt: Date;
  seller: TaxParty;
  buyer: TaxParty;
  fees: Satang;
  vat: Satang;
}): TaxInvoice {
  if (request.fees <= 0) throw new Error(`no tax invoice for ${request.merchantId} in ${request.month}: no fees`);
  const specimen = request.mode === 'test';
  const issueDate = bangkokDateOf(request.issuedAt);
  return {
    id: request.id,
    merchantId: request.merchantId,
    serial: serialOf(sequenceOf(specimen, issueDate), request.number),
    specimen,
    month: request.month,
    issueDate,
    issuedAt: request.issuedAt,
    seller: request.seller,
    buyer: request.buyer,
    fees: request.fees,
    vat: request.vat,
    total: request.fees + request.vat,
    currency: 'THB',
  };
}

/** Satang as baht with two decimals and thousands separators: 123456 -> 1,234.56. */
export const bahtText = (amount: Satang): string =>
  `${amount < 0 ? '-' : ''}${Math.floor(Math.abs(amount) / 100).toLocaleString('en-US')}.${String(Math.abs(amount) % 100).padStart(2, '0')}`;
