import type { Refund } from '../../../domain/refund.js';
import type { RefundRepository } from '../../../ports/repositories.js';
import { insertNow, type Insert, type Db } from './query.js';

export interface RefundRow {
  id: string;
  merchant_id: string;
  payment_id: string;
  amount: number;
  currency: 'THB';
  status: Refund['status'];
  reason: string | null;
  created_at: Date;
}

export const toRefund = (row: RefundRow): Refund => ({
  id: row.id,
  merchantId: row.merchant_id,
  paymentId: row.payment_id,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  reason: row.reason,
  createdAt: row.created_at,
});

export const refundRepository = (db: Db, insert: Insert = insertNow(db)): RefundRepository => ({
  async insert(r) {
    await insert('refunds', {
      id: r.id,
      merchant_id: r.merchantId,
      payment_id: r.paymentId,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      reason: r.reason,
      created_at: r.createdAt,
    } satisfies RefundRow);
  },
  async findById(merchantId, id) {
    const row = await db<RefundRow>('refunds').where({ id, merchant_id: merchantId }).first();
    return row ? toRefund(row) : null;
  },
  async listByPayment(merchantId, paymentId) {
    const rows = await db<RefundRow>('refunds')
      .where({ payment_id: paymentId, merchant_id: merchantId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toRefund);
  },
});
