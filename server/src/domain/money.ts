import { DomainError } from './errors.js';

/** Amounts are integer satang (1 THB = 100 satang). */
export type Satang = number;

export const MIN_CHARGE: Satang = 100; // 1 THB
export const MAX_CHARGE: Satang = 200_000_000; // 2,000,000 THB
export const CURRENCY = 'THB';
export type Currency = typeof CURRENCY;

export function assertChargeable(amount: Satang): void {
  if (!Number.isSafeInteger(amount) || amount < MIN_CHARGE || amount > MAX_CHARGE) {
    throw new DomainError('invalid_amount', `amount must be between ${MIN_CHARGE} and ${MAX_CHARGE} satang (1 to 2,000,000 THB); got ${amount}.`, 'amount', {
      minimum: MIN_CHARGE,
      maximum: MAX_CHARGE,
    });
  }
}

export function assertCurrency(currency: string): asserts currency is Currency {
  if (currency !== CURRENCY) {
    throw new DomainError('invalid_currency', `currency must be 'THB'; '${currency}' is not supported.`, 'currency');
  }
}

/** Baht as a person types it (1500, 1,500.5, 1500.50) in satang; null when it is not an amount with at most 2 decimals. */
export function parseBaht(text: string): Satang | null {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const satang = Number(match[1]!.replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(satang) ? satang : null;
}
