import { resolveProblem, resolveWithNote, returnProblem, returnToPayer, type UnmatchedBankTransaction } from '../domain/bank-transaction.js';
import { notFound } from '../domain/errors.js';
import type { Repositories } from '../ports/repositories.js';
import { PayoutRefused } from './payouts.js';
import type { Services } from './services.js';

/** For the operator (`bank unmatched`): money the bank received that settled no payment, newest first. */
export const listUnmatchedBankTransactions = (s: Services, options: { openOnly?: boolean } = {}, limit = 1_000) =>
  s.uow.repos.bankTransactions.listUnmatched(limit, options);

/** How many there are (one cheap count, e.g. for a gauge). */
export const countUnmatchedBankTransactions = (s: Services, options: { openOnly?: boolean } = {}) => s.uow.repos.bankTransactions.countUnmatched(options);

/** Money the bank reported for one of the merchant's payments that did not fit it: what its dashboard page shows. */
export async function unmatchedMoneyOfPayment(s: Services, merchantId: string, paymentId: string): Promise<UnmatchedBankTransaction[]> {
  if (!(await s.uow.repos.payments.findById(merchantId, paymentId))) throw notFound('payment_not_found', paymentId);
  return s.uow.repos.bankTransactions.unmatchedOfPayment(paymentId);
}

async function lockUnmatched(tx: Repositories, id: string): Promise<UnmatchedBankTransaction> {
  const unmatched = await tx.bankTransactions.lockUnmatched(id);
  if (!unmatched) throw new PayoutRefused(`No unmatched bank transaction with id '${id}'.`);
  return unmatched;
}

/**
 * The operator sends unmatched money back to the payer's account as the bank listed it, once: it goes out in the next
 * `withdrawals export`, beside withdrawals and live refunds. No merchant's balance is touched: the money never was theirs.
 */
export async function returnUnmatchedMoney(s: Services, id: string): Promise<UnmatchedBankTransaction> {
  return s.uow.run(async (tx) => {
    const unmatched = await lockUnmatched(tx, id);
    const problem = returnProblem(unmatched);
    if (problem) throw new PayoutRefused(problem);
    const resolution = returnToPayer(unmatched, s.clock.now());
    await tx.bankTransactions.setResolution(id, resolution);
    return { ...unmatched, resolution };
  });
}

/** The operator closes unmatched money with a note: handled outside the service (or not money to return). */
export async function resolveUnmatchedMoney(s: Services, id: string, note: string): Promise<UnmatchedBankTransaction> {
  return s.uow.run(async (tx) => {
    const unmatched = await lockUnmatched(tx, id);
    const problem = resolveProblem(unmatched, note);
    if (problem) throw new PayoutRefused(problem);
    const resolution = resolveWithNote(note, s.clock.now());
    await tx.bankTransactions.setResolution(id, resolution);
    return { ...unmatched, resolution };
  });
}
