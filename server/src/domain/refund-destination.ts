import type { BankTransaction } from './bank-transaction.js';
import { thaiBanks, type PayoutAccount } from './payout-account.js';

/** The payer of money the bank received, exactly as the bank's inquiry listed it. */
export type ReportedPayer = Pick<BankTransaction, 'payerName' | 'payerAccount' | 'sendingBankCode'>;

/** Where money goes back to, or why it cannot go back at all. */
export type RefundDestination = { account: PayoutAccount } | { refused: string };

const ACCOUNT_NUMBER = /^\d{10,15}$/;

/**
 * Money goes back only to the account the bank reported it came from, never to anything a merchant (or a stolen API
 * key) supplied: the account number must be complete (a masked `xxx-x-x8820-x` is not) and its bank one the payout
 * rail can pay. Used for live refunds and for returning unmatched money alike.
 */
export function refundDestinationOf(payer: ReportedPayer | null): RefundDestination {
  if (!payer?.payerAccount) return { refused: "the payer's bank account is unknown (the bank did not report it), so there is nowhere to send the money" };
  if (!ACCOUNT_NUMBER.test(payer.payerAccount)) {
    return { refused: `the payer's account number the bank reported ('${payer.payerAccount}') is not 10 to 15 digits (a masked or partial number cannot be paid)` };
  }
  const bankCode = payer.sendingBankCode ?? '';
  if (!Object.hasOwn(thaiBanks, bankCode)) return { refused: `the payer's bank code '${bankCode}' is not one of ${Object.keys(thaiBanks).join(', ')}, the banks the payout rail can pay` };
  return { account: { bankCode, accountNumber: payer.payerAccount, accountName: payer.payerName?.trim() ?? '' } };
}
