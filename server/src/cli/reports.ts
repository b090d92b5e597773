import { parseArgs } from 'node:util';
import type { Services } from '../app/services.js';
import { issueTaxInvoices, setTaxDetails } from '../app/tax-invoices.js';
import { ConfigError } from '../config.js';
import { operatorContext } from '../domain/audit.js';
import { DomainError } from '../domain/errors.js';
import { HEAD_OFFICE } from '../domain/tax-invoice.js';
import { processOutput, type CliOutput } from './output.js';

export const REPORTS_USAGE = `       npm run cli -- merchants tax-details --merchant ID --tax-id DIGITS --address TEXT [--branch 00000]
       npm run cli -- reports issue --month YYYY-MM [--json]

  tax-details       the merchant's tax id (13 digits), address and branch (5 digits, 00000 head office) for its tax invoices
  reports issue     issues the tax invoices of a month that has ended in Asia/Bangkok: one per merchant with fees in it
                    (test merchants get a specimen, also for the current month); needs OPERATOR_NAME, OPERATOR_ADDRESS
                    and OPERATOR_TAX_ID; safe to run again or beside the servers' own job (nothing is issued twice)`;

const options = {
  merchant: { type: 'string' },
  'tax-id': { type: 'string' },
  address: { type: 'string' },
  branch: { type: 'string' },
  month: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export const isReportsCommand = (positionals: string[]): boolean => ['merchants tax-details', 'reports issue'].includes(positionals.join(' '));

/** Runs one operator reports command; a refusal exits non-zero with nothing changed. */
export async function runReportsCommand(services: Services, args: string[], output: CliOutput = processOutput): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options });
  try {
    if (positionals.slice(0, 2).join(' ') === 'merchants tax-details') return await taxDetails(services, values, output);
    await issue(services, values, output);
  } catch (error) {
    throw error instanceof DomainError ? new ConfigError(error.message) : error;
  }
}

async function taxDetails(
  services: Services,
  values: { merchant?: string; 'tax-id'?: string; address?: string; branch?: string },
  output: CliOutput,
): Promise<void> {
  const { merchant, 'tax-id': taxId, address } = values;
  if (!merchant || !taxId || address === undefined) throw new ConfigError('give --merchant, --tax-id and --address (and --branch unless 00000, head office).');
  const branch = values.branch ?? HEAD_OFFICE;
  if (!(await setTaxDetails(services, merchant, { taxId, address, branch }))) throw new ConfigError(`no merchant '${merchant}'.`);
  output.out(`Tax details of ${merchant} set: tax id ${taxId}, branch ${branch}.`);
}

async function issue(services: Services, values: { month?: string; json?: boolean }, output: CliOutput): Promise<void> {
  if (!values.month) throw new ConfigError('--month YYYY-MM is required.');
  const outcome = await issueTaxInvoices(services, values.month, operatorContext);
  if (values.json) {
    const issued = outcome.issued.map((i) => ({ tax_invoice_id: i.id, merchant_id: i.merchantId, serial: i.serial, total: i.total }));
    return output.out(JSON.stringify({ issued, skipped: outcome.skipped.map((s) => ({ merchant_id: s.merchantId, reason: s.reason })) }));
  }
  for (const i of outcome.issued)
    output.out(`${i.serial}  ${i.merchantId}  fees ${i.fees} + VAT ${i.vat} = ${i.total} satang${i.specimen ? '  (specimen)' : ''}`);
  for (const s of outcome.skipped) output.out(`skipped ${s.merchantId}: ${s.reason}`);
  output.out(`${outcome.issued.length} tax invoice(s) issued for ${values.month}.`);
}
