import type { RefundPayout, RefundPayoutRepository } from '../../../ports/ledger.js';
import type { Db } from './query.js';
import { toRefund, type RefundRow } from './refunds.js';

interface RefundPayoutRow extends RefundRow {
  payout_bank_code: string;
  payout_account_number: string;
  payout_account_name: string;
  payout_exported_at: Date | null;
}

const toPayout = (row: RefundPayoutRow): RefundPayout => ({
  refund: toRefund(row),
  destination: { bankCode: row.payout_bank_code, accountNumber: row.payout_account_number, accountName: row.payout_account_name },
  exported: row.payout_exported_at !== null,
});

/** Live refunds on their way back to the payer: the payout columns of their refund row. */
export const refundPayoutRepository = (db: Db): RefundPayoutRepository => ({
  async recordDestination(refundId, destination) {
    await db('refunds').where({ id: refundId }).update({
      payout_bank_code: destination.bankCode,
      payout_account_number: destination.accountNumber,
      payout_account_name: destination.accountName,
    });
  },
  async lockUnexported(limit) {
    const rows = await db<RefundPayoutRow>('refunds')
      .where({ status: 'pending' })
      .whereNotNull('payout_bank_code')
      .whereNull('payout_exported_at')
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return rows.map(toPayout);
  },
  async markExported(refundIds, at) {
    await db('refunds')
      .whereIn('id', [...refundIds])
      .update({ payout_exported_at: at });
  },
  async lockById(refundId) {
    const row = await db<RefundPayoutRow>('refunds').where({ id: refundId }).whereNotNull('payout_bank_code').forUpdate().first();
    return row ? toPayout(row) : null;
  },
  async setStatus(refundId, status) {
    await db('refunds').where({ id: refundId }).update({ status });
  },
});
