import { DomainError, notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import type { Page, PageRequest } from '../domain/page.js';
import type { Payment } from '../domain/payment.js';
import type { QrCode } from '../domain/qr-code.js';
import type { Refund } from '../domain/refund.js';
import type { Transaction } from '../domain/transaction.js';
import type { PaymentFilter, TransactionFilter } from '../ports/repositories.js';
import type { Services } from './services.js';

export async function retrievePayment(s: Services, merchant: Merchant, id: string): Promise<Payment> {
  return (await s.uow.repos.payments.findById(merchant.id, id)) ?? Promise.reject(notFound('payment_not_found', id));
}

export const listPayments = (s: Services, merchant: Merchant, filter: PaymentFilter, page: PageRequest): Promise<Page<Payment>> =>
  s.uow.repos.payments.list(merchant.id, filter, page);

export async function retrieveRefund(s: Services, merchant: Merchant, id: string): Promise<Refund> {
  return (await s.uow.repos.refunds.findById(merchant.id, id)) ?? Promise.reject(notFound('refund_not_found', id));
}

export const listTransactions = (s: Services, merchant: Merchant, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>> =>
  s.uow.repos.transactions.list(merchant.id, filter, page);

/**
 * The QR image is public: found by its unguessable id alone, and refused once its payment can no longer be paid. A
 * till's static QR is scannable while its till is active.
 */
export async function scannableQrCode(s: Services, id: string): Promise<Pick<QrCode, 'id' | 'qrData'>> {
  const qrCode = await s.uow.repos.qrCodes.findById(id);
  if (!qrCode) {
    const till = await s.uow.repos.tills.activeByStaticQrCodeId(id);
    if (!till) throw notFound('qr_code_not_found', id);
    return { id, qrData: till.staticQr.qrData };
  }
  const payment = await s.uow.repos.payments.findById(qrCode.merchantId, qrCode.paymentId);
  const expired = payment?.status === 'expired' || s.clock.now() >= qrCode.expiresAt;
  if (expired) throw new DomainError('qr_code_expired', `QR code ${id} expired at ${qrCode.expiresAt.toISOString()}; create a new one.`);
  return qrCode;
}

/** Whose payment a QR code pays (live lists follow changes named by QR code); null for an unknown one. */
export async function merchantOfQrCode(s: Services, qrCodeId: string): Promise<string | null> {
  return (await s.uow.repos.qrCodes.findById(qrCodeId))?.merchantId ?? null;
}
