import type { PayoutAccount } from './payout-account.js';
import type { PromptPayAccount } from './promptpay-payload.js';

export type Mode = 'test' | 'live';

export interface Merchant {
  id: string;
  name: string;
  mode: Mode;
  account: PromptPayAccount;
  /** Fee on each succeeded payment, in basis points (VAT comes on top). */
  feeBps: number;
  /** Where withdrawals go; null until the operator sets it. */
  payoutAccount: PayoutAccount | null;
  createdAt: Date;
}

/** API keys name their mode: `sk_test_...` drives the sandbox bank, `sk_live_...` the real one. */
export const apiKeyPrefix = (mode: Mode): string => `sk_${mode}_`;
/** A restricted key's prefix: it may do only what its permissions allow. */
export const restrictedKeyPrefix = (mode: Mode): string => `rk_${mode}_`;
