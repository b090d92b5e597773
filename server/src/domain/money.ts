import { DomainError } from './errors.js';

/** Amounts are integer satang (1 THB = 100 satang). */
export type Satang = number;

export const MIN_CHARGE: Satang = 100; // 1 THB
export const MAX_CHARGE: Satang = 200_000_000; // 2,000,000 THB
export const CURRENCY = 'THB';
export type Currency = typeof CURRENCY;

export function assertChargeable(amount: Satang): void {
  if (!Number.isSafeInteger(amount) || amount < MIN_CHARGE || amount > MAX_CHARGE) {
    throw new DomainError('invalid_amount', `amount must be between ${MIN_CHARGE} and ${MAX_CHARGE} satang (1 to 2,000,000 THB); got ${amount}.`, 'amount');
  }
}

export function assertCurrency(currency: string): asserts currency is Currency {
  if (currency !== CURRENCY) {
    throw new DomainError('invalid_currency', `currency must be 'THB'; '${currency}' is not supported.`, 'currency');
  }
}
