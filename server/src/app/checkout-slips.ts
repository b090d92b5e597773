import { DomainError, notFound } from '../domain/errors.js';
import type { SlipStatus } from '../domain/slip-verification.js';
import type { SlipInput } from '../ports/bank.js';
import { stateOf } from './checkout.js';
import type { Services } from './services.js';
import { verifySlip } from './slip-verifications.js';

/** Slips a customer may send on one payment's checkout page (DECISIONS: at most 5 tries per payment). */
export const CHECKOUT_SLIP_TRIES = 5;

export type CheckoutSlipOutcome =
  /** The page no longer shows a pending payment: nothing was checked, nothing counted. */
  | { kind: 'not_pending' }
  /** Five slips were sent for this payment already: nothing was checked. */
  | { kind: 'no_tries_left' }
  | { kind: 'checked'; status: SlipStatus; triesLeft: number }
  /** The slip could not be checked (unreadable, no slip QR, the bank unreachable): its stable code. */
  | { kind: 'refused'; code: string; triesLeft: number };

/**
 * "I have paid": a customer whose checkout still shows pending sends the slip of the transfer. Each slip sent takes
 * one of the payment's 5 tries before it is read; it is then checked as a merchant's would be, for this payment
 * (`verifySlip`), so a verified slip of a live payment completes it as the bank's confirmation would. A slip the
 * bank could not be asked about (503) gives its try back: an outage must not use up a customer's tries.
 */
export async function verifyCheckoutSlip(s: Services, qrCodeId: string, slip: SlipInput): Promise<CheckoutSlipOutcome> {
  const { qrCode, payment, state } = await stateOf(s, qrCodeId);
  if (state.status !== 'pending') return { kind: 'not_pending' };
  const tried = await s.uow.repos.slipVerifications.takeCheckoutTry(payment.id, s.clock.now(), CHECKOUT_SLIP_TRIES);
  if (tried === null) return { kind: 'no_tries_left' };
  const triesLeft = CHECKOUT_SLIP_TRIES - tried;
  const merchant = await s.uow.repos.merchants.findById(qrCode.merchantId);
  if (!merchant) throw notFound('qr_code_not_found', qrCodeId);
  try {
    const verification = await verifySlip(s, merchant, { slip, paymentId: payment.id });
    return { kind: 'checked', status: verification.status, triesLeft };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'service_unavailable') {
      await s.uow.repos.slipVerifications.giveBackCheckoutTry(payment.id);
      return { kind: 'refused', code: error.code, triesLeft: triesLeft + 1 };
    }
    if (error instanceof DomainError) return { kind: 'refused', code: error.code, triesLeft };
    throw error;
  }
}
