import type { Knex } from 'knex';
import type { KeyedRecord, QrCodeWrites, Repositories, UnitOfWork } from '../../ports/repositories.js';
import { HeldInserts } from './held-inserts.js';
import { bankCheckQueue, bankReturnQueue, bankTransactionRepository, watchPayment } from './repositories/bank.js';
import { apiKeyRepository } from './repositories/api-keys.js';
import { auditLog } from './repositories/audit-log.js';
import { deliveryRepository } from './repositories/deliveries.js';
import { eventLog } from './repositories/event-log.js';
import { eventOutbox } from './repositories/events.js';
import { idempotencyStore, storeIfKeyFree } from './repositories/idempotency.js';
import { merchantRepository } from './repositories/merchants.js';
import { insertPayment, paymentRepository } from './repositories/payments.js';
import { insertQrCode, qrCodeRepository } from './repositories/qr-codes.js';
import { insertNow, type Db, type Insert } from './repositories/query.js';
import { refundRepository } from './repositories/refunds.js';
import { transactionRepository } from './repositories/transactions.js';
import { tillRepository } from './repositories/tills.js';
import { webhookRepository } from './repositories/webhooks.js';
import { balanceRepository } from './repositories/balances.js';
import { refundPayoutRepository } from './repositories/refund-payouts.js';
import { withdrawalRepository } from './repositories/withdrawals.js';
import { invitationRepository } from './repositories/invitations.js';
import { membershipRepository } from './repositories/memberships.js';
import { sessionRepository } from './repositories/dashboard-sessions.js';
import { signInFailureRepository } from './repositories/sign-in-failures.js';
import { userRepository } from './repositories/users.js';
import { reportRepository } from './repositories/reports.js';
import { taxInvoiceRepository } from './repositories/tax-invoices.js';
import { slipVerificationRepository } from './repositories/slip-verifications.js';

export const repositoriesOn = (db: Db, insert: Insert = insertNow(db)): Repositories => ({
  merchants: merchantRepository(db, insert),
  apiKeys: apiKeyRepository(db, insert),
  qrCodes: qrCodeRepository(db, insert),
  payments: paymentRepository(db, insert),
  refunds: refundRepository(db, insert),
  transactions: transactionRepository(db, insert),
  events: eventOutbox(db, insert),
  eventLog: eventLog(db),
  webhooks: webhookRepository(db, insert),
  deliveries: deliveryRepository(db),
  idempotency: idempotencyStore(db),
  balances: balanceRepository(db),
  withdrawals: withdrawalRepository(db),
  refundPayouts: refundPayoutRepository(db),
  bankTransactions: bankTransactionRepository(db),
  bankChecks: bankCheckQueue(db, insert),
  bankReturns: bankReturnQueue(db),
  slipVerifications: slipVerificationRepository(db),
  audit: auditLog(db, insert),
  users: userRepository(db),
  memberships: membershipRepository(db),
  invitations: invitationRepository(db),
  sessions: sessionRepository(db),
  signInFailures: signInFailureRepository(db),
  reports: reportRepository(db),
  taxInvoices: taxInvoiceRepository(db),
  tills: tillRepository(db),
});

/** QR creation's writes, held to be written in one statement: the repositories' own row makers, and no repository built per request. */
function heldQrCodeWrites(knex: Knex, held: HeldInserts): QrCodeWrites {
  const { insert } = held;
  return {
    payments: { insert: (payment) => insertPayment(insert, payment) },
    events: eventOutbox(knex, insert),
    qrCodes: { insert: (qrCode) => insertQrCode(insert, qrCode) },
    bankChecks: { watch: (check) => watchPayment(insert, check) },
  };
}

export function createUnitOfWork(knex: Knex): UnitOfWork {
  return {
    repos: repositoriesOn(knex),
    run: (work) => knex.transaction((trx) => work(repositoriesOn(trx))),
    async runInOneStatement<T>(work: (writes: QrCodeWrites) => Promise<T>, keyed?: (result: T) => KeyedRecord | undefined) {
      const held = new HeldInserts();
      const result = await work(heldQrCodeWrites(knex, held));
      const record = keyed?.(result);
      const committed = await held.commit(knex, record && storeIfKeyFree(record));
      return committed ? { committed, result } : { committed };
    },
  };
}
