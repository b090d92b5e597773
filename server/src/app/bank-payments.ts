import {
  tillInquiryDates,
  inquiryDatesAround,
  inquiryDatesBetween,
  parseBankAmount,
  parseConfirmation,
  payerOf,
  sameAmount,
  unmatchedReasonOf,
  type BankTransaction,
  type UnmatchedReason,
} from '../domain/bank-transaction.js';
import { DomainError } from '../domain/errors.js';
import { succeedByBank } from '../domain/payment.js';
import { BankUnavailableError, type BankConnection } from '../ports/bank.js';
import type { BankConfirmationOutcome } from '../ports/metrics.js';
import type { BankCheck, Repositories } from '../ports/repositories.js';
import { staticPaymentProblem, type Till } from '../domain/till.js';
import { recordStaticPayment } from './till-payments.js';
import { savePaymentState } from './payment-state.js';
import type { Services } from './services.js';

/** Only live payments are found by their ref1 (`livePaymentOf`). */
const LIVE = 'live';

/** What one bank transaction did: settled its payment, was already known, did not fit (unmatched), or was reversed. */
export type BankOutcome = 'succeeded' | 'duplicate' | 'unmatched' | 'reversed';

/**
 * Applies one transaction the bank lists, exactly once: in one database transaction the bank transaction is recorded
 * (unique by the bank's id) and, when it fits, its payment succeeds through the shared path (state, transaction row,
 * event). Money that does not fit is recorded as unmatched and changes nothing else.
 */
export async function applyBankTransaction(s: Services, transaction: BankTransaction): Promise<BankOutcome> {
  if (transaction.reversed) return report(s, 'reversed');
  const applied = await s.uow
    .run((tx) => applyBankTransactionIn(tx, s, transaction))
    .catch((error: unknown): AppliedBankTransaction => {
      if (error instanceof AlreadyRecorded) return { outcome: 'duplicate', unmatched: null };
      throw error;
    });
  return reportApplied(s, transaction, applied);
}

/** What `applyBankTransactionIn` did, and why money did not fit: reported once its transaction has committed. */
export interface AppliedBankTransaction {
  outcome: Exclude<BankOutcome, 'reversed'>;
  unmatched: UnmatchedReason | null;
}

/**
 * The bank's word on one (not reversed) transaction, inside the caller's database transaction: callbacks, reconciliation
 * and verified slips all come through here, so a bank transaction is recorded once, whichever comes first.
 */
export async function applyBankTransactionIn(tx: Repositories, s: Services, transaction: BankTransaction): Promise<AppliedBankTransaction> {
  const owner = await tx.bankTransactions.livePaymentOf(transaction.ref1);
  if (!owner) {
    // Not a payment's reference: perhaps a till's static QR, which the customer paid with an amount of their own.
    const till = await tx.tills.liveTillOf(transaction.ref1);
    if (till) return applyToTill(tx, s, till, transaction);
  }
  // The payment row is locked first, so concurrent confirmations of one payment (and the sweeper) queue here.
  const payment = owner && (await tx.payments.findById(owner.merchantId, owner.paymentId, { lock: true }));
  const reason = unmatchedReasonOf(payment, LIVE, transaction);
  const recorded = await tx.bankTransactions.record({
    id: s.ids.next('bankTransaction'),
    transaction,
    paymentId: payment?.id ?? null,
    merchantId: payment?.merchantId ?? null,
    unmatchedReason: reason,
    recordedAt: s.clock.now(),
  });
  if (!recorded) return { outcome: 'duplicate', unmatched: null };
  if (reason || !payment) return { outcome: 'unmatched', unmatched: reason ?? 'unknown_reference' };
  const paid = succeedByBank(payment, LIVE, transaction.paidAt, payerOf(transaction));
  await savePaymentState(tx, s, { ...paid, updatedAt: s.clock.now() });
  return { outcome: 'succeeded', unmatched: null };
}

/** Counted once committed, so /metrics never shows money that was rolled back. */
export function reportApplied(s: Services, transaction: BankTransaction, { outcome, unmatched }: AppliedBankTransaction): BankOutcome {
  if (unmatched) s.metrics.unmatchedBankTransaction(unmatched, parseBankAmount(transaction.amount) ?? 0);
  return report(s, outcome);
}

/** The bank's transaction was recorded before: what this transaction wrote (a static payment) is rolled back. */
class AlreadyRecorded extends Error {}

/**
 * Money paid to a live till's static QR (the till row locked): a new succeeded payment of the till, recorded with the
 * bank's transaction, once (its id is unique among recorded transactions). An amount outside 1 to 2,000,000 THB, or
 * money for a closed till, is unmatched money.
 */
async function applyToTill(tx: Repositories, s: Services, till: Till, transaction: BankTransaction): Promise<AppliedBankTransaction> {
  const amount = parseBankAmount(transaction.amount);
  const problem = staticPaymentProblem(till, amount);
  const payment =
    problem || amount === null ? null : await recordStaticPayment(tx, s, till, { amount, paidAt: transaction.paidAt, payer: payerOf(transaction) });
  const recorded = await tx.bankTransactions.record({
    id: s.ids.next('bankTransaction'),
    transaction,
    paymentId: payment?.id ?? null,
    merchantId: till.merchantId,
    unmatchedReason: problem,
    recordedAt: s.clock.now(),
  });
  if (!recorded) {
    if (payment) throw new AlreadyRecorded();
    return { outcome: 'duplicate', unmatched: null };
  }
  return problem ? { outcome: 'unmatched', unmatched: problem } : { outcome: 'succeeded', unmatched: null };
}

const METRIC_OF: Record<BankOutcome, BankConfirmationOutcome> = { succeeded: 'applied', duplicate: 'duplicate', unmatched: 'unmatched', reversed: 'rejected' };

function report(s: Services, outcome: BankOutcome): BankOutcome {
  s.metrics.bankConfirmation(METRIC_OF[outcome]);
  return outcome;
}

function liveBank(s: Services): BankConnection {
  if (!s.bankConnection) throw new DomainError('route_not_found', 'No bank connection is configured on this deployment.');
  return s.bankConnection;
}

const notYetListed = () => new DomainError('service_unavailable', 'The bank does not list this transaction (yet), or cannot be asked right now; retry later.');

/**
 * The bank's confirmation callback. Its body is only a claim: the inquiry API must list a transaction with the same
 * id, amount and biller before anything happens, and what is applied is the bank's listing, not the body.
 */
export async function confirmBankPayment(s: Services, body: unknown): Promise<{ transactionId: string; outcome: BankOutcome }> {
  const bank = liveBank(s);
  const claim = parseConfirmation(body);
  if (!claim) {
    s.metrics.bankConfirmation('rejected');
    throw new DomainError(
      'invalid_request',
      'Not a payment confirmation: expected a JSON object with transactionId, billPaymentRef1, transactionDateandTime (ISO 8601) and amount.',
    );
  }
  if (claim.billerId !== null && claim.billerId !== bank.billerId) {
    s.metrics.bankConfirmation('not_listed');
    throw notYetListed();
  }
  let listed: BankTransaction | undefined;
  try {
    for (const date of inquiryDatesAround(claim.paidAt)) {
      const found = await bank.listPaid(claim.ref1, date);
      listed = found.find((t) => t.transactionId === claim.transactionId && t.billerId === bank.billerId && sameAmount(t.amount, claim.amount));
      if (listed) break;
    }
  } catch (error) {
    if (!(error instanceof BankUnavailableError)) throw error;
    s.metrics.bankConfirmation('bank_unreachable');
    throw notYetListed();
  }
  if (!listed) {
    s.metrics.bankConfirmation('not_listed');
    throw notYetListed();
  }
  return { transactionId: claim.transactionId, outcome: await applyBankTransaction(s, listed) };
}

export interface ReconciliationRound {
  checked: number;
  outcomes: Record<BankOutcome, number>;
  /** Checks the bank could not answer; they come round again after their lease. */
  unavailable: number;
  /** Active live tills whose reference the bank was asked about (every round: their static QR is paid at any time). */
  tills: number;
}

const DAY_MS = 86_400_000;

/**
 * One round of reconciliation: asks the bank about live payments that are pending or expired in the last 24 h and
 * applies what it lists by the confirmation's rules, so a lost callback delays a payment and never loses it.
 * Each check is leased for `intervalMs`, so several instances share the work.
 */
export async function reconcileBankPayments(s: Services, intervalMs: number, batchSize = 100, concurrency = 8): Promise<ReconciliationRound> {
  const bank = liveBank(s);
  const round: ReconciliationRound = { checked: 0, outcomes: { succeeded: 0, duplicate: 0, unmatched: 0, reversed: 0 }, unavailable: 0, tills: 0 };
  const check = async (payment: BankCheck, now: Date) => {
    round.checked++;
    try {
      for (const outcome of await applyWhatTheBankLists(s, bank, payment, now)) round.outcomes[outcome]++;
    } catch (error) {
      if (!(error instanceof BankUnavailableError)) throw error;
      round.unavailable++;
    }
  };
  for (;;) {
    const now = s.clock.now();
    const due = await s.uow.repos.bankChecks.claimDue(now, intervalMs, new Date(now.getTime() - DAY_MS), batchSize);
    await inBatches(due, concurrency, (payment) => check(payment, now));
    if (due.length < batchSize) break;
  }
  await reconcileTills(s, bank, round, concurrency);
  return round;
}

/**
 * A till's static QR has no expiry and no payment to watch: every round asks the bank about each active live till's
 * reference on the current Bangkok day (and the previous one until 00:15), so a lost callback delays a static payment
 * and never loses it. What was applied already comes back as a duplicate and changes nothing.
 */
async function reconcileTills(s: Services, bank: BankConnection, round: ReconciliationRound, concurrency: number): Promise<void> {
  const references = await s.uow.repos.tills.activeLiveReferences();
  const dates = tillInquiryDates(s.clock.now());
  await inBatches(references, concurrency, async (reference) => {
    round.tills++;
    try {
      for (const date of dates) {
        for (const transaction of await bank.listPaid(reference, date)) {
          if (transaction.billerId === bank.billerId) round.outcomes[await applyBankTransaction(s, transaction)]++;
        }
      }
    } catch (error) {
      if (!(error instanceof BankUnavailableError)) throw error;
      round.unavailable++;
    }
  });
}

/**
 * Asks the bank about one live payment's ref1, on every date it could have been paid, and applies each transaction
 * listed for our biller by the confirmation's rules. Throws BankUnavailableError when the bank cannot be asked.
 */
export async function applyWhatTheBankLists(s: Services, bank: BankConnection, payment: Omit<BankCheck, 'paymentId'>, now: Date): Promise<BankOutcome[]> {
  const outcomes: BankOutcome[] = [];
  const { ref1, createdAt, expiresAt } = payment;
  for (const date of inquiryDatesBetween(createdAt, expiresAt && expiresAt < now ? expiresAt : now)) {
    for (const transaction of await bank.listPaid(ref1, date)) {
      if (transaction.billerId === bank.billerId) outcomes.push(await applyBankTransaction(s, transaction));
    }
  }
  return outcomes;
}

/** A few at a time: one slow answer does not hold up the rest of the batch. `work` returns false to stop taking more. */
export async function inBatches<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void | boolean>): Promise<void> {
  let next = 0;
  let stopped = false;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (!stopped && next < items.length) if ((await work(items[next++]!)) === false) stopped = true;
    }),
  );
}
