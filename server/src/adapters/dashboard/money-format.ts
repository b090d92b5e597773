import { bankNameOf, type PayoutAccount } from '../../domain/payout-account.js';

export { formatBaht } from '../pages/formatting.js';

/** An instant as a Bangkok wall-clock time: 2026-11-24 14:05:09 (the dashboard's times are all Bangkok times). */
export const bangkokTime = (at: Date): string => new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

/** A payout account as the dashboard may show it: bank, last four digits and name, never the whole number. */
export const maskedAccount = (account: PayoutAccount): string =>
  `${bankNameOf(account.bankCode)} ····${account.accountNumber.slice(-4)} ${account.accountName}`;
