import type { Knex } from 'knex';
import type { Repositories, UnitOfWork } from '../../ports/repositories.js';
import { deliveryRepository } from './repositories/deliveries.js';
import { eventOutbox } from './repositories/events.js';
import { idempotencyStore } from './repositories/idempotency.js';
import { merchantRepository } from './repositories/merchants.js';
import { paymentRepository } from './repositories/payments.js';
import { qrCodeRepository } from './repositories/qr-codes.js';
import type { Db } from './repositories/query.js';
import { refundRepository } from './repositories/refunds.js';
import { transactionRepository } from './repositories/transactions.js';
import { webhookRepository } from './repositories/webhooks.js';

export const repositoriesOn = (db: Db): Repositories => ({
  merchants: merchantRepository(db),
  qrCodes: qrCodeRepository(db),
  payments: paymentRepository(db),
  refunds: refundRepository(db),
  transactions: transactionRepository(db),
  events: eventOutbox(db),
  webhooks: webhookRepository(db),
  deliveries: deliveryRepository(db),
  idempotency: idempotencyStore(db),
});

export function createUnitOfWork(knex: Knex): UnitOfWork {
  return {
    repos: repositoriesOn(knex),
    run: (work) => knex.transaction((trx) => work(repositoriesOn(trx))),
  };
}
