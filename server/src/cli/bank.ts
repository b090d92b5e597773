import { parseArgs } from 'node:util';
import type { Services } from '../app/services.js';
import { countUnmatchedBankTransactions, listUnmatchedBankTransactions, resolveUnmatchedMoney, returnUnmatchedMoney } from '../app/unmatched-money.js';
import { ConfigError } from '../config.js';
import { isOpen, type UnmatchedBankTransaction } from '../domain/bank-transaction.js';
import { processOutput, type CliOutput } from './output.js';

export const BANK_USAGE = `       npm run cli -- bank unmatched [--all] [--json]
       npm run cli -- bank unmatched return btx_...
       npm run cli -- bank unmatched resolve btx_... --note "..."

  bank unmatched  money the bank received that settled no payment (wrong amount, unknown ref1, late), newest first;
                  open ones only unless --all
  return          sends it back to the payer's account as the bank listed it, once, in the next withdrawals export
                  (refused when that account is not 10 to 15 digits at a listed bank)
  resolve         closes it with a note (handled outside the service)`;

export const isBankCommand = (positionals: string[]): boolean => positionals[0] === 'bank' && positionals[1] === 'unmatched';

const BTX_ID = /^btx_[0-9A-Za-z]+$/;

/** Runs one `bank unmatched ...` command; a refusal exits non-zero with nothing changed. */
export async function runBankCommand(services: Services, args: string[], output: CliOutput = processOutput): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, note: { type: 'string' } },
  });
  const [, , action, id, ...rest] = positionals;
  if (action === undefined) return printUnmatched(services, { all: values.all, json: values.json }, output);
  if ((action !== 'return' && action !== 'resolve') || !id || rest.length > 0)
    throw new ConfigError(`unknown command 'bank unmatched ${positionals.slice(2).join(' ')}'.\n${BANK_USAGE}`);
  if (!BTX_ID.test(id)) throw new ConfigError(`name the unmatched bank transaction: bank unmatched ${action} btx_...`);
  if (action === 'return') {
    if (values.note !== undefined) throw new ConfigError('--note goes with resolve, not return.');
    const returned = await returnUnmatchedMoney(services, id);
    const destination = returned.resolution?.kind === 'returned' ? returned.resolution.destination : null;
    output.out(
      `${id}: ${returned.amount} THB goes back to account ending ${destination?.accountNumber.slice(-4)} at bank ${destination?.bankCode} in the next withdrawals export.`,
    );
  } else {
    if (values.note === undefined) throw new ConfigError('give --note "..." saying how it was handled.');
    await resolveUnmatchedMoney(services, id, values.note);
    output.out(`${id} is closed with your note.`);
  }
}

/** What the operator sees of one: where it stands, and for a return where it goes (the account's last four digits). */
function describe(u: UnmatchedBankTransaction) {
  const r = u.resolution;
  return {
    bank_transaction_id: u.id,
    transaction_id: u.transactionId,
    reason: u.reason,
    ref1: u.ref1,
    amount: u.amount,
    payment_id: u.paymentId,
    paid_at: u.paidAt.toISOString(),
    recorded_at: u.recordedAt.toISOString(),
    status: !r ? 'open' : r.kind === 'resolved' ? 'resolved' : `return_${r.status}`,
    open: isOpen(u),
    note: r?.kind === 'resolved' ? r.note : null,
    return: r?.kind === 'returned' ? { bank_code: r.destination.bankCode, account_last4: r.destination.accountNumber.slice(-4), exported: r.exported } : null,
    resolved_at: r ? r.at.toISOString() : null,
  };
}

async function printUnmatched(services: Services, { all, json }: { all: boolean; json: boolean }, output: CliOutput): Promise<void> {
  const options = { openOnly: !all };
  const [rows, total] = await Promise.all([listUnmatchedBankTransactions(services, options), countUnmatchedBankTransactions(services, options)]);
  const unmatched = rows.map(describe);
  if (json) return output.out(JSON.stringify({ unmatched, total }));
  const which = all ? '' : 'open ';
  if (total === 0) return output.out(`No ${which}unmatched bank transactions.`);
  output.out(`${total} ${which}unmatched bank transaction(s)${total > unmatched.length ? `, newest ${unmatched.length} shown` : ''}:`);
  for (const u of unmatched) {
    const handled = u.note !== null ? `  note: ${u.note}` : '';
    output.out(
      `${u.bank_transaction_id}  ${u.status.padEnd(16)}  ${u.reason.padEnd(19)}  ${u.amount.padStart(12)} THB  ref1 ${u.ref1}  bank id ${u.transaction_id}  paid ${u.paid_at}${u.payment_id ? `  payment ${u.payment_id}` : ''}${handled}`,
    );
  }
}
