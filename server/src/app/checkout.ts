import { parseBankAmount } from '../domain/bank-transaction.js';
import { notFound } from '../domain/errors.js';
import type { Satang } from '../domain/money.js';
import type { PaymentStatus } from '../domain/payment.js';
import { returnUrlFor } from '../domain/return-url.js';
import type { Services } from './services.js';

/** What the customer's checkout page may know: nothing of the payment's metadata or client fields. */
export type CheckoutStatus = 'pending' | 'succeeded' | 'failed' | 'expired';

export interface CheckoutState {
  status: CheckoutStatus;
  expiresAt: Date;
  /** Transfers the bank reported for this QR code that do not fit it (another amount, too late): the customer is told. */
  unmatchedAmounts: Satang[];
}

export interface Checkout extends CheckoutState {
  qrCodeId: string;
  merchantName: string;
  amount: Satang;
  currency: string;
  reference: string | null;
  /** Where to send the customer once the payment succeeds; null without a return_url. */
  returnTo: string | null;
  /** A test merchant's page tells the customer not to pay. */
  testMode: boolean;
}

/** A refund is the merchant's business: to the customer, a refunded payment was paid. Pending past its expiry is expired. */
function customerStatus(status: PaymentStatus, expiresAt: Date, now: Date): CheckoutStatus {
  if (status === 'refunded') return 'succeeded';
  if (status === 'pending' && now >= expiresAt) return 'expired';
  return status;
}

export async function stateOf(s: Services, qrCodeId: string) {
  const qrCode = await s.uow.repos.qrCodes.findById(qrCodeId);
  const payment = qrCode && (await s.uow.repos.payments.findById(qrCode.merchantId, qrCode.paymentId));
  if (!qrCode || !payment) throw notFound('qr_code_not_found', qrCodeId);
  const status = customerStatus(payment.status, qrCode.expiresAt, s.clock.now());
  const unmatchedAmounts = (await s.uow.repos.bankTransactions.unmatchedOfPayment(payment.id)).flatMap((u) => parseBankAmount(u.amount) ?? []);
  return { qrCode, payment, state: { status, expiresAt: qrCode.expiresAt, unmatchedAmounts } satisfies CheckoutState };
}

/** The public checkout of a QR code, found by its unguessable id alone (as its image is). */
export async function retrieveCheckout(s: Services, qrCodeId: string): Promise<Checkout> {
  const { qrCode, payment, state } = await stateOf(s, qrCodeId);
  const merchant = await s.uow.repos.merchants.findById(qrCode.merchantId);
  return {
    ...state,
    qrCodeId,
    merchantName: merchant?.name ?? '',
    amount: payment.amount,
    currency: payment.currency,
    reference: payment.reference,
    returnTo: qrCode.returnUrl ? returnUrlFor(qrCode.returnUrl, payment.id) : null,
    testMode: merchant?.mode !== 'live',
  };
}

/** The checkout's status alone, as open pages follow it. */
export const retrieveCheckoutState = async (s: Services, qrCodeId: string): Promise<CheckoutState> => (await stateOf(s, qrCodeId)).state;
