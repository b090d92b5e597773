import type { Merchant } from '../domain/merchant.js';
import type { PageRequest, Slice } from '../domain/page.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentFilter } from '../ports/repositories.js';
import type { Services } from './services.js';

export interface PaymentQuery extends PaymentFilter {
  /** An exact payment_id, qr_code_id or reference. */
  search?: string;
}

const fits = (payment: Payment, filter: PaymentFilter): boolean =>
  (!filter.status || payment.status === filter.status) &&
  (!filter.startDate || payment.createdAt >= filter.startDate) &&
  (!filter.endDate || payment.createdAt <= filter.endDate);

/** The merchant's payments, newest first, filtered; a search matches a payment id, a QR code id or a reference exactly. */
export async function findPayments(s: Services, merchant: Merchant, query: PaymentQuery, page: PageRequest): Promise<Slice<Payment>> {
  const { search, ...filter } = query;
  if (!search) return s.uow.repos.payments.listNewest(merchant.id, filter, page);
  const repos = s.uow.repos;
  const [byId, qrCode, byReference] = await Promise.all([
    repos.payments.findById(merchant.id, search),
    repos.qrCodes.findById(search),
    repos.payments.findByReference(merchant.id, search, page),
  ]);
  // A QR code of another merchant is no match: its payment is looked up under this merchant only.
  const byQrCode = qrCode ? await repos.payments.findById(merchant.id, qrCode.paymentId) : null;
  const exact = page.offset === 0 ? [byId, byQrCode].filter((p): p is Payment => p !== null) : [];
  const seen = new Set<string>();
  const items = [...exact, ...byReference.items].filter((p) => !seen.has(p.id) && seen.add(p.id) && fits(p, filter));
  return { items, more: byReference.more };
}
