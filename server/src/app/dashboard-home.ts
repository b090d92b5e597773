import { addDays, bangkokDateOf, bangkokDayEnd, bangkokDayStart } from '../domain/bangkok-day.js';
import type { BalanceTotals } from '../domain/balance.js';
import type { Merchant } from '../domain/merchant.js';
import type { Payment } from '../domain/payment.js';
import type { DailyTotal } from '../ports/repositories.js';
import { retrieveBalance } from './ledger.js';
import type { Services } from './services.js';

/** Days the home page's chart covers, today included. */
export const CHART_DAYS = 30;
const LATEST = 10;

export interface HomeFigures {
  balance: BalanceTotals;
  today: DailyTotal;
  /** The last CHART_DAYS Bangkok days together. */
  lastDays: { count: number; amount: number };
  /** One entry per Bangkok day, oldest first, days without a payment included. */
  days: DailyTotal[];
  latest: Payment[];
}

/** What a merchant sees first: the balance, what succeeded today and lately, and the latest payments. */
export async function homeFigures(s: Services, merchant: Merchant): Promise<HomeFigures> {
  const today = bangkokDateOf(s.clock.now());
  const first = addDays(today, 1 - CHART_DAYS);
  const [balance, totals, latest] = await Promise.all([
    retrieveBalance(s, merchant.id),
    s.uow.repos.payments.succeededByDay(merchant.id, { startDate: bangkokDayStart(first), endDate: bangkokDayEnd(today) }),
    s.uow.repos.payments.listNewest(merchant.id, {}, { limit: LATEST, offset: 0 }),
  ]);
  const byDate = new Map(totals.map((t) => [t.date, t]));
  const days = Array.from({ length: CHART_DAYS }, (_, i) => addDays(first, i)).map((date) => byDate.get(date) ?? { date, count: 0, amount: 0 });
  const lastDays = days.reduce((sum, d) => ({ count: sum.count + d.count, amount: sum.amount + d.amount }), { count: 0, amount: 0 });
  return { balance, today: days.at(-1)!, lastDays, days, latest: latest.items };
}
