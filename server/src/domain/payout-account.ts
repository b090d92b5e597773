import { displayNameProblem } from './display-name.js';

/** Thai bank codes the payout rails know, with their short names. */
export const thaiBanks: Readonly<Record<string, string>> = {
  '002': 'BBL',
  '004': 'KBANK',
  '006': 'KTB',
  '011': 'TTB',
  '014': 'SCB',
  '025': 'BAY',
  '030': 'GSB',
  '069': 'KKP',
  '073': 'LHB',
};

/** Where money is paid out to: set by the operator only, never through the API. */
export interface PayoutAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
}

/** The reason a payout account is refused, or null when it is valid. */
export function payoutAccountProblem(account: PayoutAccount): string | null {
  if (!(account.bankCode in thaiBanks)) return `bank code '${account.bankCode}' is not one of ${Object.keys(thaiBanks).join(', ')}.`;
  if (!/^\d{10,15}$/.test(account.accountNumber)) return 'account number must be 10 to 15 digits.';
  const nameProblem = displayNameProblem(account.accountName);
  if (nameProblem) return `account name ${nameProblem}.`;
  return null;
}

export const bankNameOf = (bankCode: string): string => thaiBanks[bankCode] ?? bankCode;

/** A bank reported by its short name (KBANK) or its code (004); an unlisted one as itself. */
export function bankCodeOf(bank: string): string | null {
  if (bank in thaiBanks) return bank;
  const found = Object.entries(thaiBanks).find(([, name]) => name === bank.toUpperCase());
  return found ? found[0] : /^\d{3}$/.test(bank) ? bank : null;
}
