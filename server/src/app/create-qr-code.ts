import type { Merchant } from '../domain/merchant.js';
import { DomainError } from '../domain/errors.js';
import { assertMetadata } from '../domain/metadata.js';
import { assertChargeable, assertCurrency } from '../domain/money.js';
import type { Metadata, Payment } from '../domain/payment.js';
import { buildPromptPayPayload, type PromptPayPayloadInput } from '../domain/promptpay-payload.js';
import { assertReturnUrl } from '../domain/return-url.js';
import { DEFAULT_EXPIRY_MINUTES, expiresAtFor, type QrCode } from '../domain/qr-code.js';
import type { QrCodeWrites } from '../ports/repositories.js';
import { savePendingPayment } from './payment-state.js';
import type { Services } from './services.js';

export interface QrCodeRequest {
  amount: number;
  currency: string;
  reference?: string;
  description?: string;
  expiryMinutes?: number;
  clientName?: string;
  clientBankName?: string;
  clientBankAccount?: string;
  metadata?: Metadata;
  returnUrl?: string;
  /** The till it is taken at: an active till of the merchant (the caller has checked it, see `tillTakingPayments`). */
  tillId?: string;
}

/**
 * A QR code and its pending payment are born together: same amount, same reference, same expiry. Its writes are
 * inserts only (`QrCodeWrites`), so that the API can write them in one statement.
 */
export async function createQrCode(tx: QrCodeWrites, s: Services, merchant: Merchant, request: QrCodeRequest): Promise<{ qrCode: QrCode; payment: Payment }> {
  assertChargeable(request.amount);
  assertCurrency(request.currency);
  const metadata = request.metadata ?? {};
  assertMetadata(metadata);
  if (request.returnUrl !== undefined) assertReturnUrl(request.returnUrl, { allowHttp: s.returnUrls.allowHttp });

  const payee = payeeOf(s, merchant);

  const now = s.clock.now();
  const expiresAt = expiresAtFor(now, request.expiryMinutes ?? DEFAULT_EXPIRY_MINUTES);
  const paymentId = s.ids.next('payment');
  const bankReference = s.ids.bankReference();
  const qrCode: QrCode = {
    id: s.ids.next('qrCode'),
    merchantId: merchant.id,
    paymentId,
    qrData: buildPromptPayPayload({ ...payee, amountSatang: request.amount, reference: bankReference }),
    bankReference,
    returnUrl: request.returnUrl ?? null,
    tillId: request.tillId ?? null,
    expiresAt,
    createdAt: now,
  };
  const payment: Payment & { status: 'pending' } = {
    id: paymentId,
    merchantId: merchant.id,
    qrCodeId: qrCode.id,
    tillId: request.tillId ?? null,
    status: 'pending',
    amount: request.amount,
    currency: request.currency,
    reference: request.reference ?? null,
    description: request.description ?? null,
    clientName: request.clientName ?? null,
    clientBankName: request.clientBankName ?? null,
    clientBankAccount: request.clientBankAccount ?? null,
    metadata,
    refundedAmount: 0,
    card: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    expiresAt,
  };
  await savePendingPayment(tx, s, payment);
  await tx.qrCodes.insert(qrCode);
  if (merchant.mode === 'live') await tx.bankChecks.watch({ paymentId, ref1: bankReference, createdAt: now });
  return { qrCode, payment };
}

/** The service's fixed mark in ref2 of live bill payments. */
const LIVE_QR_REF2 = 'PQR';

/**
 * Test keys pay the merchant's own (sandbox) account; live keys pay the deployment's biller account, with the
 * payment's bank reference as ref1, so that the bank's confirmation names the payment.
 */
export function payeeOf(s: Services, merchant: Merchant): Pick<PromptPayPayloadInput, 'account' | 'ref2'> {
  if (merchant.mode === 'test') return { account: merchant.account };
  if (!s.bankConnection) {
    throw new DomainError(
      'qr_payments_unavailable',
      'QR payments are not enabled for live keys on this deployment (no bank connection is configured); use a test key.',
    );
  }
  return { account: { kind: 'biller_id', billerId: s.bankConnection.billerId }, ref2: LIVE_QR_REF2 };
}
