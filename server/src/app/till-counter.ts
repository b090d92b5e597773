import { bangkokDateOf, bangkokDayEnd, bangkokDayStart } from '../domain/bangkok-day.js';
import type { Merchant } from '../domain/merchant.js';
import type { Satang } from '../domain/money.js';
import type { Payment } from '../domain/payment.js';
import type { Till } from '../domain/till.js';
import { tillByDisplayToken } from './tills.js';
import type { Services } from './services.js';

/** Payments of one till's day that the Receive page lists at most (a counter takes far fewer in a day). */
export const TILL_DAY_LIMIT = 500;

export interface TillDay {
  payments: Payment[];
  /** More than TILL_DAY_LIMIT payments today: the list and figures are of the newest ones. */
  more: boolean;
  succeededCount: number;
  succeededTotal: Satang;
}

const succeeded = (payment: Payment) => payment.status === 'succeeded' || payment.status === 'refunded';

/** The till's payments of the current Bangkok day, newest first, with how many succeeded and for how much. */
export async function tillDay(s: Services, merchant: Merchant, tillId: string): Promise<TillDay> {
  const today = bangkokDateOf(s.clock.now());
  const found = await s.uow.repos.payments.listNewest(
    merchant.id,
    { tillId, startDate: bangkokDayStart(today), endDate: bangkokDayEnd(today) },
    { limit: TILL_DAY_LIMIT, offset: 0 },
  );
  const done = found.items.filter(succeeded);
  return { payments: found.items, more: found.more, succeededCount: done.length, succeededTotal: done.reduce((sum, p) => sum + p.amount, 0) };
}

/** What the customer display shows: the payment waiting at the till, and the last one that ended. */
export interface TillDisplayState {
  pending: { paymentId: string; qrCodeId: string; amount: Satang; expiresAt: Date } | null;
  latest: { paymentId: string; status: 'succeeded' | 'failed' | 'expired'; amount: Satang; at: Date } | null;
}

export interface TillDisplay {
  till: Till;
  merchantName: string;
  testMode: boolean;
  state: TillDisplayState;
}

/** The till's newest payments are enough to tell what stands at the counter now. */
const RECENT = 10;

export async function tillDisplayState(s: Services, till: Till): Promise<TillDisplayState> {
  const now = s.clock.now();
  const recent = await s.uow.repos.payments.listNewest(till.merchantId, { tillId: till.id }, { limit: RECENT, offset: 0 });
  const waiting = recent.items.find((p) => p.status === 'pending' && p.qrCodeId !== null && p.expiresAt !== null && p.expiresAt > now);
  const ended = recent.items.filter((p) => p.status !== 'pending').sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
  return {
    pending: waiting ? { paymentId: waiting.id, qrCodeId: waiting.qrCodeId!, amount: waiting.amount, expiresAt: waiting.expiresAt! } : null,
    latest: ended
      ? {
          paymentId: ended.id,
          status: ended.status === 'refunded' ? 'succeeded' : (ended.status as 'succeeded' | 'failed' | 'expired'),
          amount: ended.amount,
          at: ended.updatedAt,
        }
      : null,
  };
}

/** The customer display of a display token: null when no active till has it (unknown, rolled, closed). */
export async function tillDisplay(s: Services, token: string): Promise<TillDisplay | null> {
  const till = await tillByDisplayToken(s, token);
  if (!till) return null;
  const merchant = await s.uow.repos.merchants.findById(till.merchantId);
  return { till, merchantName: merchant?.name ?? '', testMode: merchant?.mode !== 'live', state: await tillDisplayState(s, till) };
}

/** The till a QR code belongs to (a payment's taken there, or the till's static one), for the displays to follow. */
export async function tillOfQrCode(s: Services, qrCodeId: string): Promise<string | null> {
  return (await s.uow.repos.qrCodes.findById(qrCodeId))?.tillId ?? null;
}
