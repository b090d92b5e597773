import { bankNameOf, type PayoutAccount } from '../../domain/payout-account.js';

/** A payout account as the dashboard may show it: bank, last four digits and name, never the whole number. */
export const maskedAccount = (account: PayoutAccount): string =>
  `${bankNameOf(account.bankCode)} ····${account.accountNumber.slice(-4)} ${account.accountName}`;
