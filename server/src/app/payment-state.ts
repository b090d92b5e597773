import { paymentEvent, paymentEventKind } from '../domain/events.js';
import type { Payment } from '../domain/payment.js';
import type { QrCodeWrites, Repositories } from '../ports/repositories.js';
import { creditPayment } from './ledger.js';
import type { Services } from './services.js';

/**
 * Persists a payment's new state (its transaction follows: `paymentTransaction`) with its event and, once it has
 * succeeded, the credit to its merchant's balance: all in the caller's transaction. Every way a payment completes
 * comes through here.
 */
export async function savePaymentState(tx: Repositories, s: Services, payment: Payment): Promise<void> {
  await tx.payments.update(payment);
  if (payment.status === 'succeeded') await creditPayment(tx, s, payment);
  const kind = paymentEventKind(payment);
  if (kind) await tx.events.record(paymentEvent(s.ids.next('event'), kind, payment, payment.updatedAt));
}

/** Records a new payment and its first event; one born succeeded (a card charge approved at once) is credited too. */
export async function saveNewPayment(tx: Repositories, s: Services, payment: Payment): Promise<void> {
  await tx.payments.insert(payment);
  if (payment.status === 'succeeded') await creditPayment(tx, s, payment);
  await announceNewPayment(tx, s, payment);
}

/** A new pending payment (a QR code's) leaves the ledger alone: its payment and event are inserts only. */
export async function savePendingPayment(tx: QrCodeWrites, s: Services, payment: Payment & { status: 'pending' }): Promise<void> {
  await tx.payments.insert(payment);
  await announceNewPayment(tx, s, payment);
}

async function announceNewPayment(tx: Pick<QrCodeWrites, 'events'>, s: Services, payment: Payment): Promise<void> {
  const kind = paymentEventKind(payment);
  if (kind) await tx.events.record(paymentEvent(s.ids.next('event'), kind, payment, payment.createdAt));
}
