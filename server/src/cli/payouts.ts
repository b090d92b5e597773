import { rm, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { setFeeBps, setPayoutAccount } from '../app/merchants.js';
import { exportLiveTransfers, markTransfer } from '../app/payouts.js';
import type { Services } from '../app/services.js';
import { ConfigError } from '../config.js';
import { assertFeeBps } from '../domain/balance.js';
import { payoutAccountProblem, type PayoutAccount } from '../domain/payout-account.js';
import { processOutput, type CliOutput } from './output.js';

export const PAYOUT_USAGE = `       npm run cli -- merchants payout-account --merchant ID --bank-code CODE --account-number DIGITS --account-name NAME
       npm run cli -- merchants fees --merchant ID --fee-bps N
       npm run cli -- withdrawals export [--out FILE]
       npm run cli -- withdrawals mark wd_...|rfd_...|btx_... --succeeded | --failed CODE

  --bank-code       Thai bank code: 002 BBL, 004 KBANK, 006 KTB, 011 TTB, 014 SCB, 025 BAY, 030 GSB, 069 KKP, 073 LHB
  --account-number  10 to 15 digits; only its last four digits are ever shown through the API
  --fee-bps         fee on each succeeded payment in basis points (0 to 5000; 7 % VAT on the fee comes on top)
  export            writes every pending live withdrawal, unsent live refund and unsent return of unmatched money
                    as a bank bulk-transfer CSV (to FILE, or standard output) and marks them processed
  mark              records the bank's outcome of one transfer; refuses a transition the state machine forbids`;

/** The payout options `merchants create` and `merchants payout-account` share; none given: no account. */
export function payoutAccountFrom(values: { 'bank-code'?: string; 'account-number'?: string; 'account-name'?: string }): PayoutAccount | null {
  const { 'bank-code': bankCode, 'account-number': accountNumber, 'account-name': accountName } = values;
  if (bankCode === undefined && accountNumber === undefined && accountName === undefined) return null;
  if (!bankCode || !accountNumber || !accountName) throw new ConfigError('a payout account needs --bank-code, --account-number and --account-name together.');
  const problem = payoutAccountProblem({ bankCode, accountNumber, accountName });
  if (problem) throw new ConfigError(`payout account: ${problem}`);
  return { bankCode, accountNumber, accountName: accountName.trim() };
}

export function feeBpsFrom(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const feeBps = /^\d+$/.test(raw) ? Number(raw) : NaN;
  try {
    assertFeeBps(feeBps);
  } catch (error) {
    throw new ConfigError(`--fee-bps '${raw}': ${(error as Error).message}`);
  }
  return feeBps;
}

export const payoutOptions = {
  merchant: { type: 'string' },
  'bank-code': { type: 'string' },
  'account-number': { type: 'string' },
  'account-name': { type: 'string' },
  'fee-bps': { type: 'string' },
  out: { type: 'string' },
  succeeded: { type: 'boolean', default: false },
  failed: { type: 'string' },
} as const;

export const isPayoutCommand = (positionals: string[]): boolean =>
  ['merchants payout-account', 'merchants fees', 'withdrawals export'].includes(positionals.join(' ')) ||
  (positionals[0] === 'withdrawals' && positionals[1] === 'mark');

/** Runs one operator payout command; a refusal exits non-zero with nothing changed. */
export async function runPayoutCommand(services: Services, args: string[], output: CliOutput = processOutput): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...payoutOptions, json: { type: 'boolean', default: false } } });
  const command = positionals.slice(0, 2).join(' ');
  const merchantId = () => values.merchant ?? Promise.reject(new ConfigError('--merchant is required.'));
  if (command === 'merchants payout-account') {
    const account = payoutAccountFrom(values);
    if (!account) throw new ConfigError('give --bank-code, --account-number and --account-name.');
    if (!(await setPayoutAccount(services, await merchantId(), account))) throw new ConfigError(`no merchant '${values.merchant}'.`);
    output.out(`Payout account of ${values.merchant} set: bank ${account.bankCode}, account ending ${account.accountNumber.slice(-4)}.`);
  } else if (command === 'merchants fees') {
    const feeBps = feeBpsFrom(values['fee-bps']);
    if (feeBps === undefined) throw new ConfigError('--fee-bps is required.');
    if (!(await setFeeBps(services, await merchantId(), feeBps))) throw new ConfigError(`no merchant '${values.merchant}'.`);
    output.out(`Fee of ${values.merchant} set to ${feeBps} basis points (plus 7 % VAT on the fee) for payments from now on.`);
  } else if (command === 'withdrawals export') {
    await exportTo(services, values.out, output);
  } else {
    await mark(services, positionals[2], values, output);
  }
}

async function exportTo(services: Services, out: string | undefined, output: CliOutput): Promise<void> {
  let written = false;
  try {
    const counts = await exportLiveTransfers(services, async (file) => {
      if (out) await writeFile(out, file, { flag: 'w' });
      else output.write(file);
      written = Boolean(out);
    });
    output.err(
      `Exported ${counts.withdrawals} withdrawal(s), ${counts.refunds} refund(s) and ${counts.returns} return(s) of unmatched money${out ? ` to ${out}` : ''}; withdrawals are now processed.`,
    );
  } catch (error) {
    // The transaction rolled back: nothing was marked, so the file must not be uploaded.
    if (written && out) await rm(out, { force: true });
    throw error;
  }
}

async function mark(services: Services, id: string | undefined, values: { succeeded?: boolean; failed?: string }, output: CliOutput): Promise<void> {
  if (!id || !/^(wd|rfd|btx)_[0-9A-Za-z]+$/.test(id)) throw new ConfigError('name the transfer: withdrawals mark wd_..., rfd_... or btx_...');
  if (Boolean(values.succeeded) === (values.failed !== undefined)) throw new ConfigError('give exactly one of --succeeded or --failed CODE.');
  if (values.failed !== undefined && !/^[a-z0-9_]{1,64}$/.test(values.failed))
    throw new ConfigError('--failed CODE: lowercase letters, digits and _ (e.g. account_closed).');
  const result = await markTransfer(services, id, values.succeeded ? { status: 'succeeded' } : { status: 'failed', code: values.failed! });
  output.out(result.changed ? `${id} is now ${result.status}.` : `${id} was already ${result.status}; nothing changed.`);
}
