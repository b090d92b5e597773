import type { QrCode } from '../../../domain/qr-code.js';
import type { QrCodeRepository } from '../../../ports/repositories.js';
import { insertNow, type Insert, type Db } from './query.js';

interface QrCodeRow {
  id: string;
  merchant_id: string;
  payment_id: string;
  qr_data: string;
  bank_reference: string;
  return_url: string | null;
  till_id: string | null;
  expires_at: Date;
  created_at: Date;
}

/** A QR code's row, through `insert` (also how a QR code's held writes add it: ../unit-of-work.ts). */
export const insertQrCode = (insert: Insert, qr: QrCode): Promise<void> =>
  insert('qr_codes', {
    id: qr.id,
    merchant_id: qr.merchantId,
    payment_id: qr.paymentId,
    qr_data: qr.qrData,
    bank_reference: qr.bankReference,
    return_url: qr.returnUrl,
    till_id: qr.tillId,
    expires_at: qr.expiresAt,
    created_at: qr.createdAt,
  } satisfies QrCodeRow);

export const qrCodeRepository = (db: Db, insert: Insert = insertNow(db)): QrCodeRepository => ({
  async insert(qr) {
    await insertQrCode(insert, qr);
  },
  async findById(id) {
    // A till's static QR (no payment) is the till's: ../tills.ts reads it.
    const row = await db<QrCodeRow>('qr_codes').where({ id }).whereNotNull('payment_id').first();
    return row
      ? {
          id: row.id,
          merchantId: row.merchant_id,
          paymentId: row.payment_id,
          qrData: row.qr_data,
          bankReference: row.bank_reference,
          returnUrl: row.return_url,
          tillId: row.till_id,
          expiresAt: row.expires_at,
          createdAt: row.created_at,
        }
      : null;
  },
});
