import type { Payment } from '../../domain/payment.js';
import type { DomainEvent } from '../../domain/events.js';
import type { OperationalMetrics } from '../../ports/metrics.js';
import type { QrCodeWrites, Repositories, UnitOfWork } from '../../ports/repositories.js';
import type { DeliveryQueue } from '../../ports/webhook-delivery.js';

type Report = () => void;

/** Repositories (or QR creation's writes) that note, for after the commit, the payments inserted and the payment outcomes announced. */
function noting<Writes extends Repositories | QrCodeWrites>(repos: Writes, metrics: OperationalMetrics, reports: Report[]): Writes {
  return {
    ...repos,
    payments: {
      ...repos.payments,
      insert(payment: Payment) {
        reports.push(() => metrics.paymentCreated(payment.card ? 'card' : 'qr'));
        return repos.payments.insert(payment);
      },
    },
    events: {
      record(event: DomainEvent) {
        const status = event.payload.data.status;
        if (event.kind === 'payment.succeeded' || event.kind === 'payment.failed') {
          if (status === 'succeeded' || status === 'failed' || status === 'expired') reports.push(() => metrics.paymentCompleted(status));
        }
        return repos.events.record(event);
      },
    },
  };
}

/** Counts payments created and completed from what each unit of work commits, whichever use case wrote it. */
export function countingUnitOfWork(uow: UnitOfWork, metrics: OperationalMetrics): UnitOfWork {
  const reportAll = (reports: Report[]) => {
    for (const report of reports) report();
  };
  return {
    repos: uow.repos,
    async run(work) {
      const reports: Report[] = [];
      const result = await uow.run((repos) => work(noting(repos, metrics, reports)));
      reportAll(reports);
      return result;
    },
    async runInOneStatement(work, keyed) {
      const reports: Report[] = [];
      const written = await uow.runInOneStatement((writes) => work(noting(writes, metrics, reports)), keyed);
      if (written.committed) reportAll(reports);
      return written;
    },
  };
}

/** Counts webhook delivery attempts by the state each one left its delivery in. */
export function countingDeliveryQueue(queue: DeliveryQueue, metrics: OperationalMetrics): DeliveryQueue {
  return {
    ...queue,
    async recordAttempt(delivery, result, redelivery) {
      const recorded = await queue.recordAttempt(delivery, result, redelivery);
      if (recorded) metrics.webhookAttempt(recorded.status);
      return recorded;
    },
  };
}
