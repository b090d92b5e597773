import { DomainError } from './errors.js';
import { displayNameProblem } from './display-name.js';
import { MAX_CHARGE, MIN_CHARGE, type Satang } from './money.js';

/** At most this many active tills per merchant (closed ones do not count). */
export const MAX_ACTIVE_TILLS = 100;
export const TILL_NAME_MAX_LENGTH = 50;

export type TillStatus = 'active' | 'closed';

/**
 * A named point of sale: a counter, a tablet facing the customer. Its static QR (a QR code row with no payment) is paid
 * with any amount the customer types; its `reference` is that QR's ref1, unique among every QR code's bank reference.
 */
export interface Till {
  id: string;
  merchantId: string;
  name: string;
  status: TillStatus;
  reference: string;
  /** The secret of the customer display's URL (at least 128 random bits); rolled, the old one stops. */
  displayToken: string;
  staticQr: StaticQr;
  createdAt: Date;
  closedAt: Date | null;
}

/** The till's static PromptPay QR (point of initiation 11, no amount): a QR code that static payments point to. */
export interface StaticQr {
  qrCodeId: string;
  qrData: string;
}

/** The name as kept: trimmed, 1 to 50 characters, no control characters. */
export function tillName(name: string): string {
  const problem = displayNameProblem(name) ?? ([...name.trim()].length > TILL_NAME_MAX_LENGTH ? `must be at most ${TILL_NAME_MAX_LENGTH} characters` : null);
  if (problem) throw new DomainError('invalid_request', `The till's name ${problem}.`, 'name');
  return name.trim();
}

export function assertBelowTillLimit(activeTills: number): void {
  if (activeTills >= MAX_ACTIVE_TILLS)
    throw new DomainError('till_limit_reached', `This merchant has ${MAX_ACTIVE_TILLS} active tills already: close one first.`);
}

/** active -> closed, once: its display and its static QR stop working. Closing a closed till changes nothing. */
export const closeTill = (till: Till, now: Date): Till => (till.status === 'closed' ? till : { ...till, status: 'closed', closedAt: now });

export const renameTill = (till: Till, name: string): Till => ({ ...till, name: tillName(name) });

/** A new display URL secret; the old one stops at once. Only an active till's display can be rolled. */
export function rollDisplayToken(till: Till, token: string): Till {
  if (till.status !== 'active') throw new DomainError('till_unavailable', `Till ${till.id} is closed; its display cannot be rolled.`);
  return { ...till, displayToken: token };
}

/** QR generation at a till: only an active till of the merchant (unknown, another merchant's or closed: the same answer). */
export function assertTillTakesPayments(till: Till | null, tillId: string): asserts till is Till {
  if (!till || till.status !== 'active') throw new DomainError('till_unavailable', `No active till with id '${tillId}': it is unknown or closed.`, 'till_id');
}

/** Why money the bank lists for a till's reference creates no payment, or null: an active till and a chargeable amount. */
export function staticPaymentProblem(till: Till, amount: Satang | null): 'till_closed' | 'amount_out_of_range' | null {
  if (till.status !== 'active') return 'till_closed';
  if (amount === null || amount < MIN_CHARGE || amount > MAX_CHARGE) return 'amount_out_of_range';
  return null;
}

/** The customer display's address: the token is the secret (no sign-in). */
export const displayUrlOf = (publicBaseUrl: string, till: Pick<Till, 'displayToken'>): string => `${publicBaseUrl}/Thai/tills/display/${till.displayToken}`;
