import type { Till } from '../../../domain/till.js';
import type { TillRepository } from '../../../ports/repositories.js';
import { pageOf, type Db } from './query.js';

interface TillRow {
  id: string;
  merchant_id: string;
  name: string;
  status: Till['status'];
  reference: string;
  display_token: string;
  static_qr_code_id: string;
  qr_data: string;
  created_at: Date;
  closed_at: Date | null;
}

const toTill = (row: TillRow): Till => ({
  id: row.id,
  merchantId: row.merchant_id,
  name: row.name,
  status: row.status,
  reference: row.reference,
  displayToken: row.display_token,
  staticQr: { qrCodeId: row.static_qr_code_id, qrData: row.qr_data },
  createdAt: row.created_at,
  closedAt: row.closed_at,
});

const COLUMNS = ['t.*', 'q.qr_data'];

export const tillRepository = (db: Db): TillRepository => {
  // The static QR's payload lives in its QR code row (the image route reads it there).
  const withQr = () => db('tills as t').join('qr_codes as q', 'q.id', 't.static_qr_code_id');
  return {
    async insert(till, displayTokenHash) {
      await db('qr_codes').insert({
        id: till.staticQr.qrCodeId,
        merchant_id: till.merchantId,
        payment_id: null,
        qr_data: till.staticQr.qrData,
        bank_reference: till.reference,
        return_url: null,
        till_id: till.id,
        expires_at: null,
        created_at: till.createdAt,
      });
      await db('tills').insert({
        id: till.id,
        merchant_id: till.merchantId,
        name: till.name,
        status: till.status,
        reference: till.reference,
        display_token: till.displayToken,
        display_token_hash: displayTokenHash,
        static_qr_code_id: till.staticQr.qrCodeId,
        created_at: till.createdAt,
        closed_at: till.closedAt,
      });
    },
    async countActiveForCreation(merchantId) {
      // The merchant's row is the lock; NO KEY leaves the foreign-key checks of other tables free to pass.
      await db.raw('SELECT 1 FROM merchants WHERE id = ? FOR NO KEY UPDATE', [merchantId]);
      const row = await db('tills').where({ merchant_id: merchantId, status: 'active' }).count<{ n: string | number }[]>({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async findById(merchantId, id, options = {}) {
      const query = withQr().where({ 't.id': id, 't.merchant_id': merchantId }).select(COLUMNS);
      const [row] = (await (options.lock ? query.forUpdate('t') : query)) as TillRow[];
      return row ? toTill(row) : null;
    },
    async list(merchantId, page) {
      const ids = db('tills').where({ merchant_id: merchantId });
      const found = await pageOf<{ id: string }, string>(db, 'tills', ids, page, (row) => row.id);
      const rows = (await withQr().whereIn('t.id', found.items).select(COLUMNS)) as TillRow[];
      const byId = new Map(rows.map((row) => [row.id, toTill(row)]));
      return { items: found.items.flatMap((id) => byId.get(id) ?? []), total: found.total };
    },
    async update(till, displayTokenHash) {
      await db('tills').where({ id: till.id, merchant_id: till.merchantId }).update({
        name: till.name,
        status: till.status,
        display_token: till.displayToken,
        display_token_hash: displayTokenHash,
        closed_at: till.closedAt,
      });
    },
    async activeByStaticQrCodeId(qrCodeId) {
      const row = (await withQr().where({ 't.static_qr_code_id': qrCodeId, 't.status': 'active' }).first(COLUMNS)) as TillRow | undefined;
      return row ? toTill(row) : null;
    },
    async findActiveByDisplayTokenHash(hash) {
      const row = (await withQr().where({ 't.display_token_hash': hash, 't.status': 'active' }).first(COLUMNS)) as TillRow | undefined;
      return row ? toTill(row) : null;
    },
    async liveTillOf(reference) {
      const [row] = (await withQr()
        .join('merchants as m', 'm.id', 't.merchant_id')
        .where({ 't.reference': reference, 'm.mode': 'live' })
        .select(COLUMNS)
        .forUpdate('t')) as TillRow[];
      return row ? toTill(row) : null;
    },
    async activeLiveReferences() {
      const rows = await db('tills as t')
        .join('merchants as m', 'm.id', 't.merchant_id')
        .where({ 't.status': 'active', 'm.mode': 'live' })
        .orderBy('t.id')
        .select<{ reference: string }[]>('t.reference');
      return rows.map((row) => row.reference);
    },
  };
};
