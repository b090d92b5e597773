import { takeForWithdrawal } from '../domain/balance.js';
import type { PayoutAccount } from '../domain/payout-account.js';
import type { AuditContext } from '../domain/audit.js';
import { DomainError, notFound } from '../domain/errors.js';
import { withdrawalEvent } from '../domain/events.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import { MIN_WITHDRAWAL, moveWithdrawal, type Failure, type Withdrawal, type WithdrawalStatus } from '../domain/withdrawal.js';
import type { WithdrawalFilter } from '../ports/ledger.js';
import type { PayoutTransfer } from '../ports/payout-rail.js';
import type { Repositories } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import { debit, giveBack, lockBalance } from './ledger.js';
import type { Services } from './services.js';

export interface WithdrawalRequest {
  amount: number;
  description?: string;
}

/** Takes `amount` from the available balance and sends it to the payout account the operator set; audited as `context`'s doing. */
export async function createWithdrawal(
  tx: Repositories,
  s: Services,
  merchant: Merchant,
  request: WithdrawalRequest,
  context: AuditContext,
): Promise<Withdrawal> {
  if (!Number.isSafeInteger(request.amount) || request.amount < MIN_WITHDRAWAL) {
    throw new DomainError('invalid_amount', `A withdrawal is at least ${MIN_WITHDRAWAL} satang (1 THB); got ${request.amount}.`, 'amount', {
      minimum: MIN_WITHDRAWAL,
    });
  }
  // Read in the transaction: the operator may have set the account after this merchant's key was cached.
  const destination = (await tx.merchants.findById(merchant.id))?.payoutAccount;
  if (!destination) {
    throw new DomainError(
      'payout_account_missing',
      'No payout account is set for this merchant; the operator sets it (npm run cli -- merchants payout-account).',
    );
  }
  const before = await lockBalance(tx, s, merchant.id);
  const after = takeForWithdrawal(before, request.amount);
  const now = s.clock.now();
  const withdrawal: Withdrawal = {
    id: s.ids.next('withdrawal'),
    merchantId: merchant.id,
    mode: merchant.mode,
    amount: request.amount,
    currency: 'THB',
    status: 'pending',
    description: request.description ?? null,
    destination,
    failureCode: null,
    failureMessage: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
  await tx.withdrawals.insert(withdrawal);
  await tx.balances.linkToWithdrawal(merchant.id, withdrawal.id);
  await debit(tx, s, before, after, {
    merchantId: merchant.id,
    type: 'withdrawal',
    amount: -request.amount,
    sourceId: withdrawal.id,
    withdrawalId: withdrawal.id,
  });
  await tx.events.record(withdrawalEvent(s.ids.next('event'), withdrawal, now));
  await recordAudit(tx, s, context, merchant.id, 'withdrawal_requested', withdrawal.id, { amount: request.amount });
  return withdrawal;
}

/** One step of the state machine, with its event; a failed withdrawal gives its amount back, once. */
export async function moveWithdrawalTo(tx: Repositories, s: Services, withdrawal: Withdrawal, to: WithdrawalStatus, failure?: Failure): Promise<Withdrawal> {
  const now = s.clock.now();
  const moved = moveWithdrawal(withdrawal, to, now, failure);
  await tx.withdrawals.update(moved);
  if (to === 'failed') {
    await tx.balances.unlinkWithdrawal(withdrawal.id);
    await giveBack(tx, s, {
      merchantId: withdrawal.merchantId,
      type: 'withdrawal_reversal',
      amount: withdrawal.amount,
      sourceId: withdrawal.id,
      withdrawalId: withdrawal.id,
    });
  }
  await tx.events.record(withdrawalEvent(s.ids.next('event'), moved, now));
  return moved;
}

export const transferOf = (w: Withdrawal): PayoutTransfer => ({ id: w.id, amount: w.amount, destination: w.destination });

/**
 * The sandbox rail's worker: pending test withdrawals are handed to the rail (processed, or refused), processed ones
 * get the rail's outcome. Rows are locked with SKIP LOCKED, so any number of workers share the work without doing it twice.
 */
export async function advanceSandboxPayouts(s: Services, batchSize = 50): Promise<number> {
  return s.uow.run(async (tx) => {
    const inFlight = await tx.withdrawals.lockInFlight('test', ['pending', 'processed'], batchSize);
    for (const withdrawal of inFlight) {
      const transfer = transferOf(withdrawal);
      const result = withdrawal.status === 'pending' ? await s.payoutRails.sandbox.submit(transfer) : await s.payoutRails.sandbox.outcome(transfer);
      if (result) await moveWithdrawalTo(tx, s, withdrawal, result.status, result.status === 'failed' ? result.failure : undefined);
    }
    return inFlight.length;
  });
}

export async function retrieveWithdrawal(s: Services, merchant: Merchant, id: string): Promise<Withdrawal> {
  return (await s.uow.repos.withdrawals.findById(merchant.id, id)) ?? Promise.reject(notFound('withdrawal_not_found', id));
}

export const listWithdrawals = (s: Services, merchant: Merchant, filter: WithdrawalFilter, page: PageRequest): Promise<Page<Withdrawal>> =>
  s.uow.repos.withdrawals.list(merchant.id, filter, page);

/** Where the merchant's withdrawals go, as the operator last set it (read fresh: a cached merchant may predate it). */
export const payoutAccountOf = async (s: Services, merchant: Merchant): Promise<PayoutAccount | null> =>
  (await s.uow.repos.merchants.findById(merchant.id))?.payoutAccount ?? null;
