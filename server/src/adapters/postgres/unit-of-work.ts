import type { Knex } from 'knex';
import type { KeyedRecord, Repositories, UnitOfWork } from '../../ports/repositories.js';
import { HeldInserts } from './held-inserts.js';
import { bankCheckQueue, bankReturnQueue, bankTransactionRepository } from './repositories/bank.js';
import { apiKeyRepository } from './repositories/api-keys.js';
import { auditLog } from './repositories/audit-log.js';
import { deliveryRepository } from './repositories/deliveries.js';
import { eventLog } from './repositories/event-log.js';
import { eventOutbox } from './repositories/events.js';
import { idempotencyStore, storeIfKeyFree } from './repositories/idempotency.js';
import { merchantRepository } from './repositories/merchants.js';
import { paymentRepository } from './repositories/payments.js';
import { qrCodeRepository } from './repositories/qr-codes.js';
import { insertNow, type Db, type Insert } from './repositories/query.js';
import { refundRepository } from './repositories/refunds.js';
import { transactionRepository } from './repositories/transactions.js';
import { webhookRepository } from './repositories/webhooks.js';
import { balanceRepository } from './repositories/balances.js';
import { refundPayoutRepository } from './repositories/refund-payouts.js';
import { withdrawalRepository } from './repositories/withdrawals.js';
import { reportRepository } from './repositories/reports.js';
import { taxInvoiceRepository } from './repositories/tax-invoices.js';

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
  audit: auditLog(db, insert),
  reports: reportRepository(db),
  taxInvoices: taxInvoiceRepository(db),
});

const notHeld = (what: string) => () => Promise.reject(new Error(`${what} cannot be held for one statement; run this work in a transaction (uow.run)`));

/** Reads go straight to the database; inserts are held; any other write would escape the statement, so it is refused. */
function heldRepositories(knex: Knex, held: HeldInserts): Repositories {
  const repos = repositoriesOn(knex, held.insert);
  return {
    ...repos,
    payments: {
      ...repos.payments,
      update: notHeld('payments.update'),
      lockOverdueTestPayments: notHeld('payments.lockOverdueTestPayments'),
      findById: (merchantId, id, options) => (options?.lock ? notHeld('a locking payments.findById')() : repos.payments.findById(merchantId, id)),
    },
    transactions: {
      ...repos.transactions,
      updatePaymentTransaction: notHeld('transactions.updatePaymentTransaction'),
      updateRefundTransaction: notHeld('transactions.updateRefundTransaction'),
    },
    webhooks: {
      ...repos.webhooks,
      countForRegistration: notHeld('webhooks.countForRegistration'),
      delete: notHeld('webhooks.delete'),
      disable: notHeld('webhooks.disable'),
      update: notHeld('webhooks.update'),
      secretsForRotation: notHeld('webhooks.secretsForRotation'),
      replaceSecrets: notHeld('webhooks.replaceSecrets'),
      forgetExpiredSecrets: notHeld('webhooks.forgetExpiredSecrets'),
    },
    deliveries: { ...repos.deliveries, queueTest: notHeld('deliveries.queueTest'), redeliver: notHeld('deliveries.redeliver') },
    eventLog: { ...repos.eventLog, purgeOlderThan: notHeld('eventLog.purgeOlderThan') },
    idempotency: { claim: notHeld('idempotency.claim'), save: notHeld('idempotency.save'), purgeOlderThan: notHeld('idempotency.purgeOlderThan') },
    // Ledger writes go with locks and updates: always in a transaction.
    balances: { ...repos.balances, lock: notHeld('balances.lock'), adjust: notHeld('balances.adjust'), append: notHeld('balances.append') },
    bankTransactions: {
      ...repos.bankTransactions,
      record: notHeld('bankTransactions.record'),
      lockUnmatched: notHeld('bankTransactions.lockUnmatched'),
      setResolution: notHeld('bankTransactions.setResolution'),
    },
    bankReturns: { lockUnexported: notHeld('bankReturns.lockUnexported'), markExported: notHeld('bankReturns.markExported') },
    bankChecks: { ...repos.bankChecks, claimDue: notHeld('bankChecks.claimDue') },
    taxInvoices: {
      ...repos.taxInvoices,
      setTaxDetails: notHeld('taxInvoices.setTaxDetails'),
      lockSequence: notHeld('taxInvoices.lockSequence'),
      advanceSequence: notHeld('taxInvoices.advanceSequence'),
      insert: notHeld('taxInvoices.insert'),
      storePdf: notHeld('taxInvoices.storePdf'),
    },
  };
}

export function createUnitOfWork(knex: Knex): UnitOfWork {
  return {
    repos: repositoriesOn(knex),
    run: (work) => knex.transaction((trx) => work(repositoriesOn(trx))),
    async runInOneStatement<T>(work: (repos: Repositories) => Promise<T>, keyed?: (result: T) => KeyedRecord | undefined) {
      const held = new HeldInserts();
      const result = await work(heldRepositories(knex, held));
      const record = keyed?.(result);
      const committed = await held.commit(knex, record && storeIfKeyFree(record));
      return committed ? { committed, result } : { committed };
    },
  };
}
