import { parseBankAmount, type BankTransaction } from '../domain/bank-transaction.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { Merchant } from '../domain/merchant.js';
import type { Satang } from '../domain/money.js';
import type { Payment } from '../domain/payment.js';
import { slipVerdict, type SlipFacts, type SlipQr, type SlipVerification } from '../domain/slip-verification.js';
import { BankUnavailableError, type SlipBank, type SlipInput } from '../ports/bank.js';
import type { Repositories } from '../ports/repositories.js';
import { applyBankTransaction, applyBankTransactionIn, reportApplied, type AppliedBankTransaction } from './bank-payments.js';
import { retrievePayment } from './queries.js';
import { retrieveTill } from './tills.js';
import type { Services } from './services.js';

export interface SlipRequest {
  slip: SlipInput;
  /** The payment the slip should pay. */
  paymentId?: string;
  /** The till the slip should pay at: a payment taken at it, or money for its static QR. */
  tillId?: string;
  /** The amount expected, in satang. */
  amount?: Satang;
}

/**
 * Where the money of a slip went, as far as this merchant may know: one of its payments (a QR code's, or the static
 * payment a till's reference created), or elsewhere.
 */
type Receiver = { kind: 'payment' | 'till'; payment: Payment } | { kind: 'elsewhere' };

/** Test keys ask the sandbox bank (which received every test payment); live keys the deployment's bank. */
function slipBankOf(s: Services, merchant: Merchant): SlipBank {
  if (merchant.mode === 'test') return s.sandboxSlips;
  if (!s.bankConnection) throw new DomainError('service_unavailable', 'No bank connection is configured on this deployment to verify live slips.');
  return s.bankConnection;
}

const bankUnreachable = () => new DomainError('service_unavailable', 'The bank cannot be asked about this slip right now; nothing was recorded. Retry later.');

/** Whose the money is. Only this merchant's own payment is ever named (never another merchant's). */
async function receiverOf(s: Services, merchant: Merchant, bank: SlipBank, listed: BankTransaction): Promise<Receiver> {
  if (listed.billerId !== bank.billerId) return { kind: 'elsewhere' };
  const owner = await s.uow.repos.slipVerifications.paymentOfReference(listed.ref1, merchant.mode);
  if (owner) {
    const payment = owner.merchantId === merchant.id ? await s.uow.repos.payments.findById(merchant.id, owner.paymentId) : null;
    return payment ? { kind: 'payment', payment } : { kind: 'elsewhere' };
  }
  return merchant.mode === 'live' ? tillReceiverOf(s, merchant, listed) : { kind: 'elsewhere' };
}

/**
 * Money for one of this merchant's live tills' reference: the bank listed it, so it is applied now as a callback or
 * reconciliation would apply it (once per bank transaction), and the slip names the static payment it created. Money a
 * till could not take (closed, an amount out of range) made no payment: not this merchant's to keep.
 */
async function tillReceiverOf(s: Services, merchant: Merchant, listed: BankTransaction): Promise<Receiver> {
  const till = await s.uow.repos.tills.liveTillOf(listed.ref1);
  if (till?.merchantId !== merchant.id) return { kind: 'elsewhere' };
  await applyBankTransaction(s, listed);
  const paymentId = await s.uow.repos.bankTransactions.paymentIdOf(listed.transactionId);
  const payment = paymentId ? await s.uow.repos.payments.findById(merchant.id, paymentId) : null;
  return payment ? { kind: 'till', payment } : { kind: 'elsewhere' };
}

/**
 * Checks a slip with the bank and records the verdict (one record per request). The one `verified` record of a bank
 * transaction is unique in the database across merchants: of concurrent requests showing one slip, one is verified and
 * the others are duplicates. A verified live slip is the bank's word: its payment completes as reconciliation would.
 */
export async function verifySlip(s: Services, merchant: Merchant, request: SlipRequest): Promise<SlipVerification> {
  const slip = await s.slips.read(request.slip);
  const named = request.paymentId === undefined ? null : await retrievePayment(s, merchant, request.paymentId);
  const till = request.tillId === undefined ? null : await retrieveTill(s, merchant, request.tillId);
  const bank = slipBankOf(s, merchant);
  let listed: BankTransaction | null;
  try {
    listed = await bank.lookUpSlip(slip);
  } catch (error) {
    if (error instanceof BankUnavailableError) throw bankUnreachable();
    throw error;
  }
  const receiver = listed ? await receiverOf(s, merchant, bank, listed) : null;
  const fits = (paid: Payment) => (named === null || named.id === paid.id) && (till === null || till.id === paid.tillId);
  const payment = receiver && receiver.kind !== 'elsewhere' && fits(receiver.payment) ? receiver.payment : null;
  const amount = listed ? parseBankAmount(listed.amount) : null;
  const facts: SlipFacts = {
    known: listed !== null,
    verifiedBefore: false,
    ours: payment !== null,
    amountFits: amount !== null && (request.amount ?? amount) === amount && (payment?.amount ?? amount) === amount,
  };
  const now = s.clock.now();
  const recordOf = (status: SlipVerification['status'], firstVerifiedAt: Date | null): SlipVerification => ({
    id: s.ids.next('slipVerification'),
    merchantId: merchant.id,
    status,
    slip,
    amount,
    paidAt: listed?.paidAt ?? null,
    paymentId: payment?.id ?? null,
    firstVerifiedAt,
    createdAt: now,
  });
  let applied: AppliedBankTransaction | null = null;
  const verification = await s.uow.run(async (tx) => {
    if (slipVerdict(facts) === 'verified') {
      const verified = recordOf('verified', now);
      if (await tx.slipVerifications.insert(verified)) {
        // A till's money was applied already (tillReceiverOf); a QR code's payment completes here.
        if (merchant.mode === 'live' && listed && receiver?.kind === 'payment') applied = await applyBankTransactionIn(tx, s, listed);
        return verified;
      }
    }
    return recordJudged(tx, slip, facts, recordOf);
  });
  if (applied && listed) reportApplied(s, listed, applied);
  return verification;
}

/** Any verdict but a first `verified`: a slip verified before by anyone is a duplicate, whatever else is true of it. */
async function recordJudged(
  tx: Repositories,
  slip: SlipQr,
  facts: SlipFacts,
  recordOf: (status: SlipVerification['status'], firstVerifiedAt: Date | null) => SlipVerification,
): Promise<SlipVerification> {
  const firstVerifiedAt = facts.known ? await tx.slipVerifications.firstVerifiedAt(slip) : null;
  const verification = recordOf(slipVerdict({ ...facts, verifiedBefore: firstVerifiedAt !== null }), firstVerifiedAt);
  await tx.slipVerifications.insert(verification);
  return verification;
}

export async function retrieveSlipVerification(s: Services, merchant: Merchant, id: string): Promise<SlipVerification> {
  return (await s.uow.repos.slipVerifications.findById(merchant.id, id)) ?? Promise.reject(notFound('slip_verification_not_found', id));
}

/** The test helper: the slip (payload and PNG) of a succeeded test payment, as the sandbox bank would print it. */
export async function slipOfTestPayment(tx: Repositories, s: Services, merchant: Merchant, paymentId: string): Promise<{ payload: string; image: Buffer }> {
  const payment = merchant.mode === 'test' ? await tx.payments.findById(merchant.id, paymentId) : null;
  if (!payment) throw notFound('payment_not_found', paymentId);
  const qrCode = payment.qrCodeId ? await tx.qrCodes.findById(payment.qrCodeId) : null;
  if (!qrCode || (payment.status !== 'succeeded' && payment.status !== 'refunded')) {
    throw new DomainError('invalid_parameters', `Payment ${paymentId} has no slip: only a succeeded test QR payment was paid by a transfer.`, 'payment_id');
  }
  return s.slips.draw(s.sandboxSlips.slipOf(qrCode.bankReference));
}
