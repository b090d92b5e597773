import type { Merchant, Mode } from '../domain/merchant.js';
import type { PayoutAccount } from '../domain/payout-account.js';
import { UNHOLDABLE_PROMPTPAY_ACCOUNT, type PromptPayAccount } from '../domain/promptpay-payload.js';
import type { FoundApiKey } from '../ports/repositories.js';
import type { Services } from './services.js';

export interface NewMerchant {
  name: string;
  mode: Mode;
  /** The PromptPay id the operator gave; without one, a live merchant with a bank connection pays the operator's biller id, a test merchant's QR codes name a proxy no bank can hold. */
  account?: PromptPayAccount;
  feeBps?: number;
  payoutAccount?: PayoutAccount | null;
}

/** Creates a merchant with its first API key; the key's secret is returned once and stored only as a hash. */
export async function createMerchant(s: Services, request: NewMerchant): Promise<{ merchant: Merchant; apiKey: string }> {
  const merchant: Merchant = {
    id: s.ids.next('merchant'),
    feeBps: 0,
    payoutAccount: null,
    ...request,
    account: accountOf(s, request),
    createdAt: s.clock.now(),
  };
  const key = s.apiKeys.issue(request.mode);
  await s.uow.run((tx) => tx.merchants.insert(merchant, { id: key.id, hash: key.hash, prefix: key.prefix, last4: key.last4 }));
  return { merchant, apiKey: key.secret };
}

/** A live merchant without an id of its own is paid, as every live QR code, through the operator's biller id. */
function accountOf(s: Services, request: NewMerchant): PromptPayAccount {
  if (request.account) return request.account;
  if (request.mode === 'live' && s.bankConnection) return { kind: 'biller_id', billerId: s.bankConnection.billerId };
  return UNHOLDABLE_PROMPTPAY_ACCOUNT; // a live merchant's QR codes pay the biller id, and none exist without a bank connection
}

/**
 * The merchant an API key belongs to, with the key's id, last four, expiry and permissions, or null when unknown or
 * revoked; the stored hash is compared in constant time. Expiry is left to the caller, which may keep the answer for a moment.
 */
export async function authenticate(s: Services, apiKey: string): Promise<Omit<FoundApiKey, 'keyHash'> | null> {
  const hash = s.apiKeys.hash(apiKey);
  const found = await s.uow.repos.merchants.findByApiKeyHash(hash);
  if (!found || !s.apiKeys.sameHash(found.keyHash, hash)) return null;
  const { keyHash: _hash, ...key } = found;
  return key;
}

/** The operator sets where a merchant's withdrawals go; false when there is no such merchant. */
export const setPayoutAccount = (s: Services, merchantId: string, account: PayoutAccount): Promise<boolean> =>
  s.uow.run((tx) => tx.merchants.setPayoutAccount(merchantId, account));

/** The operator sets a merchant's fee on each succeeded payment from now on; false when there is no such merchant. */
export const setFeeBps = (s: Services, merchantId: string, feeBps: number): Promise<boolean> => s.uow.run((tx) => tx.merchants.setFeeBps(merchantId, feeBps));
