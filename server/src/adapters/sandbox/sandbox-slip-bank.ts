import type { BankTransaction } from '../../domain/bank-transaction.js';
import type { Satang } from '../../domain/money.js';
import type { SandboxSlipBank } from '../../ports/bank.js';
import type { UnitOfWork } from '../../ports/repositories.js';

/** The sandbox bank's own biller account and bank code (SCB), as its slips and answers name them. */
const SANDBOX_BILLER_ID = 'SANDBOX-BILLER';
const SANDBOX_BANK = '014';
/** A sandbox transaction reference is this prefix and the test QR code's bank reference: no live bank writes one. */
const PREFIX = 'SANDBOX';

/** Paid test payments, as the sandbox bank lists them: only those that succeeded (and may have been refunded since). */
const PAID = new Set(['succeeded', 'refunded']);

/** Baht as a bank writes it: `150.00`. */
const bahtText = (amount: Satang): string => `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

/** The sandbox bank answers for the slips of succeeded test payments, so the whole flow can be tried without a bank. */
export function sandboxSlipBank(uow: UnitOfWork): SandboxSlipBank {
  return {
    billerId: SANDBOX_BILLER_ID,
    slipOf: (bankReference) => ({ sendingBank: SANDBOX_BANK, transRef: `${PREFIX}${bankReference}` }),
    async lookUpSlip(slip) {
      if (slip.sendingBank !== SANDBOX_BANK || !slip.transRef.startsWith(PREFIX)) return null;
      const ref1 = slip.transRef.slice(PREFIX.length);
      const owner = await uow.repos.slipVerifications.paymentOfReference(ref1, 'test');
      const payment = owner && (await uow.repos.payments.findById(owner.merchantId, owner.paymentId));
      if (!payment || !PAID.has(payment.status) || !payment.completedAt) return null;
      const transaction: BankTransaction = {
        transactionId: slip.transRef,
        amount: bahtText(payment.amount),
        paidAt: payment.completedAt,
        ref1,
        ref2: 'PQR',
        billerId: SANDBOX_BILLER_ID,
        payerName: payment.clientName,
        payerAccount: payment.clientBankAccount,
        sendingBankCode: SANDBOX_BANK,
        reversed: false,
      };
      return transaction;
    },
  };
}
