import type { Mode } from './merchant.js';
import type { Currency, Satang } from './money.js';
import type { PayoutAccount } from './payout-account.js';

export type WithdrawalStatus = 'pending' | 'processed' | 'succeeded' | 'failed';
export const withdrawalStatuses: readonly WithdrawalStatus[] = ['pending', 'processed', 'succeeded', 'failed'];

export const MIN_WITHDRAWAL: Satang = 100;

export interface Withdrawal {
  id: string;
  merchantId: string;
  mode: Mode;
  amount: Satang;
  currency: Currency;
  status: WithdrawalStatus;
  description: string | null;
  destination: PayoutAccount;
  failureCode: string | null;
  failureMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** pending -> processed (handed to the bank) -> succeeded | failed; pending -> failed (refused by the rail). */
const allowed: Record<WithdrawalStatus, readonly WithdrawalStatus[]> = {
  pending: ['processed', 'failed'],
  processed: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
};

export const canMove = (from: WithdrawalStatus, to: WithdrawalStatus): boolean => allowed[from].includes(to);

export interface Failure {
  code: string;
  message: string;
}

/** The withdrawal in its new state; the caller has checked `canMove`. */
export function moveWithdrawal(w: Withdrawal, to: WithdrawalStatus, now: Date, failure?: Failure): Withdrawal {
  if (!canMove(w.status, to)) throw new RangeError(`withdrawal ${w.id} cannot move from ${w.status} to ${to}`);
  const final = to === 'succeeded' || to === 'failed';
  return {
    ...w,
    status: to,
    failureCode: to === 'failed' ? (failure?.code ?? 'failed') : null,
    failureMessage: to === 'failed' ? (failure?.message ?? 'The transfer failed.') : null,
    updatedAt: now,
    completedAt: final ? now : null,
  };
}
