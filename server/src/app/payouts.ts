import { refundEvent } from '../domain/events.js';
import { revertRefund, type Refund } from '../domain/refund.js';
import { canMove, type Failure } from '../domain/withdrawal.js';
import type { PayoutTransfer } from '../ports/payout-rail.js';
import type { Repositories } from '../ports/repositories.js';
import { returnRefundToBalance } from './ledger.js';
import type { Services } from './services.js';
import { moveWithdrawalTo, transferOf } from './withdrawals.js';

/** The operator asked for something the state machine does not allow: nothing was changed. */
export class PayoutRefused extends Error {}

const EXPORT_BATCH = 10_000;

/**
 * The bulk-transfer rail's export: every pending live withdrawal and every live refund not yet sent, as one bank file.
 * The withdrawals become `processed` and the refunds are marked sent in the same transaction that `write` runs in, so a
 * file that could not be written leaves everything pending, and a second export never repeats a transfer.
 */
export async function exportLiveTransfers(
  s: Services,
  write: (file: string) => Promise<void>,
): Promise<{ withdrawals: number; refunds: number; returns: number }> {
  return s.uow.run(async (tx) => {
    const withdrawals = await tx.withdrawals.lockInFlight('live', ['pending'], EXPORT_BATCH);
    const refunds = await tx.refundPayouts.lockUnexported(EXPORT_BATCH);
    const returns = await tx.bankReturns.lockUnexported(EXPORT_BATCH);
    for (const withdrawal of withdrawals) await moveWithdrawalTo(tx, s, withdrawal, 'processed');
    if (refunds.length > 0)
      await tx.refundPayouts.markExported(
        refunds.map((r) => r.refund.id),
        s.clock.now(),
      );
    if (returns.length > 0)
      await tx.bankReturns.markExported(
        returns.map((r) => r.id),
        s.clock.now(),
      );
    const transfers: PayoutTransfer[] = [
      ...withdrawals.map(transferOf),
      ...refunds.map((r) => ({ id: r.refund.id, amount: r.refund.amount, destination: r.destination })),
      // Unmatched money going back to its payer: the line names the bank transaction (btx_...) as a refund's names the refund.
      ...returns.flatMap((r) => (r.resolution?.kind === 'returned' ? [{ id: r.id, amount: r.resolution.amount, destination: r.resolution.destination }] : [])),
    ];
    await write(s.payoutRails.bulkTransfer.render(transfers));
    return { withdrawals: withdrawals.length, refunds: refunds.length, returns: returns.length };
  });
}

export type BankOutcomeMark = { status: 'succeeded' } | { status: 'failed'; code: string };

/** What marking did: `changed: false` when the transfer already had that outcome (marking is idempotent). */
export interface MarkResult {
  id: string;
  status: string;
  changed: boolean;
}

const failureOf = (code: string): Failure => ({ code, message: `The bank reported the transfer failed: ${code}.` });

/** Records the bank's outcome of a live withdrawal (`wd_...`), live refund (`rfd_...`) or return (`btx_...`) from a bulk-transfer file. */
export async function markTransfer(s: Services, id: string, outcome: BankOutcomeMark): Promise<MarkResult> {
  return s.uow.run(async (tx) => {
    if (id.startsWith('rfd_')) return markRefund(tx, s, id, outcome);
    if (id.startsWith('btx_')) return markReturn(tx, id, outcome);
    return markWithdrawal(tx, s, id, outcome);
  });
}

/** A failed return leaves the money unmatched and open again, for the operator to close with a note. */
async function markReturn(tx: Repositories, id: string, outcome: BankOutcomeMark): Promise<MarkResult> {
  const unmatched = await tx.bankTransactions.lockUnmatched(id);
  const sent = unmatched?.resolution;
  if (sent?.kind !== 'returned') throw new PayoutRefused(`No return of unmatched money with id '${id}'.`);
  if (sent.status === outcome.status) return { id, status: sent.status, changed: false };
  if (sent.status !== 'pending') throw new PayoutRefused(`Return ${id} is ${sent.status}; it cannot become ${outcome.status}.`);
  if (!sent.exported) throw new PayoutRefused(`Return ${id} has not been exported yet; it cannot have ${outcome.status}.`);
  await tx.bankTransactions.setResolution(id, { ...sent, status: outcome.status });
  return { id, status: outcome.status, changed: true };
}

async function markWithdrawal(tx: Repositories, s: Services, id: string, outcome: BankOutcomeMark): Promise<MarkResult> {
  const withdrawal = await tx.withdrawals.lockById(id);
  if (!withdrawal) throw new PayoutRefused(`No withdrawal with id '${id}'.`);
  if (withdrawal.mode !== 'live') throw new PayoutRefused(`Withdrawal ${id} is a test withdrawal: the sandbox rail settles it.`);
  if (withdrawal.status === outcome.status) return { id, status: withdrawal.status, changed: false };
  if (!canMove(withdrawal.status, outcome.status)) {
    throw new PayoutRefused(
      `Withdrawal ${id} is ${withdrawal.status}; it cannot become ${outcome.status}${withdrawal.status === 'pending' ? ' before an export has sent it' : ''}.`,
    );
  }
  const moved = await moveWithdrawalTo(tx, s, withdrawal, outcome.status, outcome.status === 'failed' ? failureOf(outcome.code) : undefined);
  return { id, status: moved.status, changed: true };
}

async function markRefund(tx: Repositories, s: Services, id: string, outcome: BankOutcomeMark): Promise<MarkResult> {
  const payout = await tx.refundPayouts.lockById(id);
  if (!payout) throw new PayoutRefused(`No live refund with id '${id}'.`);
  const { refund } = payout;
  if (refund.status === outcome.status) return { id, status: refund.status, changed: false };
  if (refund.status !== 'pending') throw new PayoutRefused(`Refund ${id} is ${refund.status}; it cannot become ${outcome.status}.`);
  if (outcome.status === 'succeeded' && !payout.exported) throw new PayoutRefused(`Refund ${id} has not been exported yet; it cannot have succeeded.`);
  await recordRefundOutcome(tx, s, refund, outcome.status);
  return { id, status: outcome.status, changed: true };
}

/** A refund's outcome: completed, or failed, which gives the balance and the payment back what the refund took. */
export async function recordRefundOutcome(tx: Repositories, s: Services, pending: Refund, status: 'succeeded' | 'failed'): Promise<Refund> {
  const refund = { ...pending, status };
  const payment = await tx.payments.findById(refund.merchantId, refund.paymentId, { lock: true });
  if (!payment) throw new Error(`refund ${refund.id} names no payment`);
  const now = s.clock.now();
  await tx.refundPayouts.setStatus(refund.id, status);
  await tx.transactions.updateRefundTransaction(refund.id, status);
  if (status === 'failed') {
    const restored = revertRefund(payment, refund.amount, now);
    await tx.payments.update(restored);
    await returnRefundToBalance(tx, s, { merchantId: refund.merchantId, type: 'refund_reversal', amount: refund.amount, sourceId: refund.id });
  }
  await tx.events.record(refundEvent(s.ids.next('event'), refund, payment, now));
  return refund;
}
