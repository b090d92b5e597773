import { createQrCode } from '../../../server/src/app/create-qr-code.js';
import { setPayoutAccount } from '../../../server/src/app/merchants.js';
import { createWithdrawal } from '../../../server/src/app/withdrawals.js';
import { refundPayment } from '../../../server/src/app/refund-payment.js';
import type { Services } from '../../../server/src/app/services.js';
import { settlePayment } from '../../../server/src/app/settle-payment.js';
import { registerWebhook } from '../../../server/src/app/webhooks.js';
import type { EventKind } from '../../../server/src/domain/events.js';
import type { Merchant } from '../../../server/src/domain/merchant.js';
import type { Service } from './service.js';

/** Records made through the service's own use cases, in its database, as its routes would make them. */
export function seeder(service: Service, merchant: Merchant) {
  const s: Services = service.running.runtime.services;
  const pendingPayment = async (amount: number, reference?: string) => {
    const { payment, qrCode } = await s.uow.run((tx) => createQrCode(tx, s, merchant, { amount, currency: 'THB', reference, metadata: { order_id: 'ORD-88213' } }));
    return { paymentId: payment.id, qrCodeId: qrCode.id };
  };
  const settled = async (amount: number, outcome: 'succeeded' | 'failed' | 'expired') => {
    const created = await pendingPayment(amount);
    const bank = outcome === 'succeeded' ? ({ kind: 'succeeded', payer: {} } as const) : ({ kind: outcome } as const);
    await s.uow.run((tx) => settlePayment(tx, s, merchant, created.paymentId, bank));
    return created;
  };
  return {
    pendingPayment,
    succeededPayment: (amount: number) => settled(amount, 'succeeded'),
    failedPayment: (amount: number) => settled(amount, 'failed'),
    expiredPayment: (amount: number) => settled(amount, 'expired'),
    refund: async (paymentId: string, amount?: number, reason?: string) => (await s.uow.run((tx) => refundPayment(tx, s, merchant, { paymentId, amount, reason }))).id,
    payoutAccount: () => setPayoutAccount(s, merchant.id, { bankCode: '014', accountNumber: '1234567890', accountName: 'Noodle Shop Co., Ltd.' }),
    /** A withdrawal the sandbox rail has paid out (its worker runs in the service), so its state no longer moves. */
    paidOutWithdrawal: async (amount: number, description?: string) => {
      const { id } = await s.uow.run((tx) => createWithdrawal(tx, s, merchant, { amount, description }));
      for (let waited = 0; (await s.uow.repos.withdrawals.findById(merchant.id, id))?.status !== 'succeeded'; waited += 50) {
        if (waited > 15_000) throw new Error(`withdrawal ${id} was not paid out by the sandbox rail`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return id;
    },
    /** The newest event of this merchant, as the events API lists it. */
    latestEventId: async () => (await s.uow.repos.eventLog.list(merchant.id, {}, { limit: 1, offset: 0 })).items[0]?.id ?? '',
    latestDeliveryId: async (webhookId: string) => (await s.uow.repos.deliveries.list(merchant.id, webhookId, { limit: 1, offset: 0 })).items[0]?.id ?? '',
    webhook: async (url: string, events: string[] = ['payment.pending']) =>
      (await s.uow.run((tx) => registerWebhook(tx, s, merchant, { url, events: events as EventKind[] }))).id,
  };
}
export type Seeder = ReturnType<typeof seeder>;
