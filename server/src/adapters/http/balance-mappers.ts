import type { components } from '@payment-qr/contract';
import type { BalanceTotals, LedgerEntry } from '../../domain/balance.js';
import { bankNameOf } from '../../domain/payout-account.js';
import type { Withdrawal } from '../../domain/withdrawal.js';

type Schemas = components['schemas'];

const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

export const toBalanceBody = (b: BalanceTotals): Schemas['Balance'] => ({ available: b.available, pending: b.pending, currency: 'THB' });

export const toBalanceTransactionBody = (e: LedgerEntry): Schemas['BalanceTransaction'] => ({
  balance_transaction_id: e.id,
  type: e.type,
  amount: e.amount,
  fee: e.fee,
  fee_vat: e.feeVat,
  net: e.net,
  currency: e.currency,
  source_id: e.sourceId,
  withdrawal_id: e.withdrawalId,
  available_on: e.availableOn.toISOString(),
  created_at: e.createdAt.toISOString(),
});

/** The destination shows only the account's last four digits: the full number stays with the operator. */
export const toWithdrawalBody = (w: Withdrawal): Schemas['Withdrawal'] => ({
  withdrawal_id: w.id,
  amount: w.amount,
  currency: w.currency,
  status: w.status,
  description: w.description,
  destination: {
    bank_code: w.destination.bankCode,
    bank_name: bankNameOf(w.destination.bankCode),
    account_last4: w.destination.accountNumber.slice(-4),
    account_name: w.destination.accountName,
  },
  failure_code: w.failureCode,
  failure_message: w.failureMessage,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
  completed_at: isoOrNull(w.completedAt),
});
