import type { Mode } from '../../../domain/merchant.js';
import { bankTransactionKey, type SlipStatus, type SlipVerification } from '../../../domain/slip-verification.js';
import type { SlipVerificationRepository } from '../../../ports/repositories.js';
import type { Db } from './query.js';

interface SlipVerificationRow {
  id: string;
  merchant_id: string;
  status: SlipStatus;
  sending_bank: string;
  trans_ref: string;
  amount: string | number | null;
  paid_at: Date | null;
  payment_id: string | null;
  first_verified_at: Date | null;
  created_at: Date;
}

const toSlipVerification = (r: SlipVerificationRow): SlipVerification => ({
  id: r.id,
  merchantId: r.merchant_id,
  status: r.status,
  slip: { sendingBank: r.sending_bank, transRef: r.trans_ref },
  amount: r.amount === null ? null : Number(r.amount),
  paidAt: r.paid_at,
  paymentId: r.payment_id,
  firstVerifiedAt: r.first_verified_at,
  createdAt: r.created_at,
});

export const slipVerificationRepository = (db: Db): SlipVerificationRepository => ({
  async paymentOfReference(ref1: string, mode: Mode) {
    const row = await db('qr_codes as q')
      .join('merchants as m', 'm.id', 'q.merchant_id')
      .where({ 'q.bank_reference': ref1, 'm.mode': mode })
      .whereNotNull('q.payment_id') // a till's static QR: the tills' repository knows it
      .first<{ merchant_id: string; payment_id: string } | undefined>('q.merchant_id', 'q.payment_id');
    return row ? { merchantId: row.merchant_id, paymentId: row.payment_id } : null;
  },
  async insert(v) {
    const inserted = await db('slip_verifications')
      .insert({
        id: v.id,
        merchant_id: v.merchantId,
        status: v.status,
        sending_bank: v.slip.sendingBank,
        trans_ref: v.slip.transRef,
        verified_transaction: v.status === 'verified' ? bankTransactionKey(v.slip) : null,
        amount: v.amount,
        paid_at: v.paidAt,
        payment_id: v.paymentId,
        first_verified_at: v.firstVerifiedAt,
        created_at: v.createdAt,
      })
      .onConflict('verified_transaction')
      .ignore()
      .returning('id');
    return inserted.length > 0;
  },
  async firstVerifiedAt(slip) {
    const row = await db('slip_verifications')
      .where({ verified_transaction: bankTransactionKey(slip) })
      .first<{ created_at: Date } | undefined>('created_at');
    return row?.created_at ?? null;
  },
  async findById(merchantId, id) {
    const row = await db('slip_verifications').where({ merchant_id: merchantId, id }).first<SlipVerificationRow | undefined>();
    return row ? toSlipVerification(row) : null;
  },
  async takeCheckoutTry(paymentId, at, limit) {
    const result = await db.raw(
      `INSERT INTO checkout_slip_tries (payment_id, tries, last_tried_at) VALUES (?, 1, ?)
       ON CONFLICT (payment_id) DO UPDATE SET tries = checkout_slip_tries.tries + 1, last_tried_at = excluded.last_tried_at
       WHERE checkout_slip_tries.tries < ?
       RETURNING tries`,
      [paymentId, at, limit],
    );
    const row = (result.rows as { tries: number }[])[0];
    return row ? Number(row.tries) : null;
  },
  async giveBackCheckoutTry(paymentId) {
    await db('checkout_slip_tries').where({ payment_id: paymentId }).where('tries', '>', 0).decrement('tries', 1);
  },
});
