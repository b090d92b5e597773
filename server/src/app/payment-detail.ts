import type { BankTransaction } from '../domain/bank-transaction.js';
import type { Merchant } from '../domain/merchant.js';
import { paymentTimeline, type PaymentHistory, type TimelineEntry } from '../domain/payment-timeline.js';
import type { QrCode } from '../domain/qr-code.js';
import { refundableAmount } from '../domain/refund.js';
import type { Webhook } from '../domain/webhook.js';
import { retrievePayment } from './queries.js';
import type { Services } from './services.js';

export interface PaymentDetail extends PaymentHistory {
  timeline: TimelineEntry[];
  /** The QR code while its payment can still be paid (the page shows its image and checkout link), else null. */
  payableQrCode: QrCode | null;
  /** The payer's account as the bank listed it, for a live payment the bank confirmed. */
  bankPayer: BankTransaction | null;
  refundable: number;
  /** The endpoints the deliveries went to, by id. */
  webhooks: ReadonlyMap<string, Webhook>;
}

/** One payment with everything that happened to it, for the merchant's payment page. */
export async function paymentDetail(s: Services, merchant: Merchant, paymentId: string): Promise<PaymentDetail> {
  const payment = await retrievePayment(s, merchant, paymentId);
  const repos = s.uow.repos;
  const [refunds, events, unmatched, qrCode, bankPayer] = await Promise.all([
    repos.refunds.listByPayment(merchant.id, payment.id),
    repos.eventLog.ofPayment(merchant.id, payment),
    repos.bankTransactions.unmatchedOfPayment(payment.id),
    payment.qrCodeId && payment.status === 'pending' ? repos.qrCodes.findById(payment.qrCodeId) : null,
    merchant.mode === 'live' && payment.status !== 'pending' ? repos.bankTransactions.settlingTransactionOf(payment.id) : null,
  ]);
  const deliveries = await repos.deliveries.ofEvents(
    merchant.id,
    events.map((e) => e.id),
  );
  const webhookIds = [...new Set(deliveries.map((d) => d.webhookId))];
  const webhooks = new Map((await Promise.all(webhookIds.map((id) => repos.webhooks.findById(merchant.id, id)))).flatMap((w) => (w ? [[w.id, w]] : [])));
  const history = { payment, refunds, events, deliveries, unmatched };
  const payable = qrCode && s.clock.now() < qrCode.expiresAt ? qrCode : null;
  return { ...history, timeline: paymentTimeline(history), payableQrCode: payable, bankPayer, refundable: refundableAmount(payment), webhooks };
}
