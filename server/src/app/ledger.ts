import {
  deltaOf,
  feesOn,
  giveBackRefund,
  mature,
  refundShortfall,
  takeForRefund,
  type BalanceChange,
  type BalanceTotals,
  type Draw,
  type LedgerEntry,
} from '../domain/balance.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import type { Payment } from '../domain/payment.js';
import type { LedgerFilter } from '../ports/ledger.js';
import type { Repositories } from '../ports/repositories.js';
import type { Services } from './services.js';

type NewEntry = Pick<LedgerEntry, 'merchantId' | 'type' | 'amount' | 'sourceId'> & Partial<Pick<LedgerEntry, 'withdrawalId'>>;

/** An entry that moves `available` at once: refunds, withdrawals and their reversals carry no fee. */
const entryNow = (s: Services, e: NewEntry): LedgerEntry => {
  const now = s.clock.now();
  return {
    id: s.ids.next('balanceTransaction'),
    fee: 0,
    feeVat: 0,
    net: e.amount,
    currency: 'THB',
    withdrawalId: null,
    availableOn: now,
    createdAt: now,
    ...e,
  };
};

/**
 * A succeeded payment credits its merchant: the amount less the fee and its VAT, `pending` until SETTLEMENT_DELAY has
 * passed since it completed. The entry is unique per payment, so a second call changes nothing.
 */
export async function creditPayment(tx: Repositories, s: Services, payment: Payment): Promise<void> {
  const merchant = await tx.merchants.findById(payment.merchantId);
  const now = s.clock.now();
  const { fee, feeVat, net } = feesOn(payment.amount, merchant?.feeBps ?? 0);
  const availableOn = new Date((payment.completedAt ?? now).getTime() + s.settlementDelayMs);
  const settled = availableOn.getTime() <= now.getTime();
  const entry: LedgerEntry = {
    id: s.ids.next('balanceTransaction'),
    merchantId: payment.merchantId,
    type: 'payment',
    amount: payment.amount,
    fee,
    feeVat,
    net,
    currency: payment.currency,
    sourceId: payment.id,
    withdrawalId: null,
    availableOn,
    createdAt: now,
  };
  if (await tx.balances.append(entry, settled))
    await tx.balances.adjust(payment.merchantId, settled ? { available: net, pending: 0 } : { available: 0, pending: net });
}

/** Locks the merchant's balance for this transaction, first moving matured credits to `available`. */
export async function lockBalance(tx: Repositories, s: Services, merchantId: string): Promise<BalanceTotals> {
  const locked = await tx.balances.lock(merchantId);
  const matured = await tx.balances.settleMatured(merchantId, s.clock.now());
  const totals = mature(locked, matured);
  if (matured !== 0) await tx.balances.adjust(merchantId, deltaOf(locked, totals));
  return totals;
}

/**
 * Moves matured credits to `available` in the background, so the entries GET /balance still has to look at stay
 * the few inside their settlement delay. Any number of workers may run it: the row lock serializes each merchant.
 */
export async function settleMaturedCredits(s: Services, batchSize = 100): Promise<number> {
  const merchants = await s.uow.repos.balances.merchantsWithMatured(s.clock.now(), batchSize);
  for (const merchantId of merchants) await s.uow.run((tx) => lockBalance(tx, s, merchantId));
  return merchants.length;
}

/**
 * Locks the balance and decides what a refund of `amount` takes from it: the payment's own pending credit, then
 * `available`, then other pending credits, latest-maturing first (only as many are read as the refund needs).
 */
export async function drawForRefund(tx: Repositories, s: Services, merchantId: string, paymentId: string, amount: number): Promise<BalanceChange> {
  const before = await lockBalance(tx, s, merchantId);
  const own = await tx.balances.pendingCreditOf(paymentId);
  const shortfall = refundShortfall(before, amount, own);
  const others = shortfall > 0 ? await tx.balances.pendingCreditsLatestFirst(merchantId, shortfall, own?.id ?? null) : [];
  return takeForRefund(before, amount, own, others);
}

/** Appends the entry to a locked balance and, only if it is new, its draws and the change the domain decided. */
async function applyOnce(tx: Repositories, s: Services, before: BalanceTotals, after: BalanceTotals, entry: NewEntry, draws: readonly Draw[]): Promise<void> {
  const recorded = entryNow(s, entry);
  if (!(await tx.balances.append(recorded, true))) return;
  await tx.balances.recordDraws(recorded.id, draws);
  await tx.balances.adjust(entry.merchantId, deltaOf(before, after));
}

/** Money leaves a locked balance: `after` is what the domain decided it becomes, `draws` which pending credits gave. */
export const debit = (
  tx: Repositories,
  s: Services,
  before: BalanceTotals,
  after: BalanceTotals,
  entry: NewEntry,
  draws: readonly Draw[] = [],
): Promise<void> => applyOnce(tx, s, before, after, entry, draws);

/** A failed withdrawal's money comes back to `available`, once: it was taken from there. */
export async function giveBack(tx: Repositories, s: Services, entry: NewEntry): Promise<void> {
  if (await tx.balances.append(entryNow(s, entry), true)) await tx.balances.adjust(entry.merchantId, { available: entry.amount, pending: 0 });
}

/**
 * A failed live refund gives back what it took, once: to the pending credits it drew on that are still pending
 * (so that money waits out its own delay again), the rest to `available`.
 */
export async function returnRefundToBalance(tx: Repositories, s: Services, entry: NewEntry): Promise<void> {
  const before = await lockBalance(tx, s, entry.merchantId);
  const { after, draws } = giveBackRefund(before, entry.amount, await tx.balances.drawsOfRefund(entry.sourceId));
  await applyOnce(tx, s, before, after, entry, draws);
}

/** The balance as of now, from the running totals and the few credits still waiting out their delay. */
export async function retrieveBalance(s: Services, merchantId: string): Promise<BalanceTotals> {
  const { totals, maturedNet } = await s.uow.repos.balances.read(merchantId, s.clock.now());
  return mature(totals, maturedNet);
}

export const listLedger = (s: Services, merchant: Merchant, filter: LedgerFilter, page: PageRequest): Promise<Page<LedgerEntry>> =>
  s.uow.repos.balances.list(merchant.id, filter, page);
