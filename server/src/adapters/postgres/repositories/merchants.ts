import type { Merchant } from '../../../domain/merchant.js';
import type { Permission } from '../../../domain/permissions.js';
import type { MerchantRepository } from '../../../ports/repositories.js';
import { apiKeyRow } from './api-keys.js';
import { insertNow, type Insert, type Db } from './query.js';

interface MerchantRow {
  id: string;
  name: string;
  mode: Merchant['mode'];
  promptpay_id: string | null;
  biller_id: string | null;
  fee_bps: number;
  payout_bank_code: string | null;
  payout_account_number: string | null;
  payout_account_name: string | null;
  created_at: Date;
}

const toMerchant = (row: MerchantRow): Merchant => ({
  id: row.id,
  name: row.name,
  mode: row.mode,
  account: row.biller_id ? { kind: 'biller_id', billerId: row.biller_id } : { kind: 'promptpay_id', id: row.promptpay_id ?? '' },
  feeBps: row.fee_bps ?? 0,
  payoutAccount:
    row.payout_bank_code && row.payout_account_number && row.payout_account_name
      ? { bankCode: row.payout_bank_code, accountNumber: row.payout_account_number, accountName: row.payout_account_name }
      : null,
  createdAt: row.created_at,
});

export const merchantRepository = (db: Db, insert: Insert = insertNow(db)): MerchantRepository => ({
  async insert(merchant, apiKey) {
    await insert('merchants', {
      id: merchant.id,
      name: merchant.name,
      mode: merchant.mode,
      promptpay_id: merchant.account.kind === 'promptpay_id' ? merchant.account.id : null,
      biller_id: merchant.account.kind === 'biller_id' ? merchant.account.billerId : null,
      fee_bps: merchant.feeBps,
      payout_bank_code: merchant.payoutAccount?.bankCode ?? null,
      payout_account_number: merchant.payoutAccount?.accountNumber ?? null,
      payout_account_name: merchant.payoutAccount?.accountName ?? null,
      created_at: merchant.createdAt,
    });
    await insert('api_keys', apiKeyRow(merchant.id, apiKey, merchant.createdAt));
  },
  async findByApiKeyHash(hash) {
    const row = await db('api_keys')
      .join('merchants', 'merchants.id', 'api_keys.merchant_id')
      .leftJoin('users', 'users.id', 'api_keys.created_by_user_id')
      .where('api_keys.key_hash', hash)
      .whereNull('api_keys.revoked_at')
      .first('merchants.*', 'api_keys.key_hash', 'api_keys.key_last4', {
        key_id: 'api_keys.id',
        key_expires_at: 'api_keys.expires_at',
        key_permissions: 'api_keys.permissions',
        key_maker_id: 'users.id',
        key_maker_email: 'users.email',
      });
    if (!row) return null;
    const key = row as {
      key_hash: string;
      key_id: string;
      key_last4: string | null;
      key_expires_at: Date | null;
      key_permissions: Permission[] | null;
      key_maker_id: string | null;
      key_maker_email: string | null;
    };
    return {
      merchant: toMerchant(row as MerchantRow),
      keyHash: key.key_hash,
      keyId: key.key_id,
      last4: key.key_last4,
      expiresAt: key.key_expires_at,
      permissions: key.key_permissions,
      madeBy: key.key_maker_id === null ? null : { userId: key.key_maker_id, email: key.key_maker_email ?? '' },
    };
  },
  async findById(id) {
    const row = await db<MerchantRow>('merchants').where({ id }).first();
    return row ? toMerchant(row) : null;
  },
  async setPayoutAccount(merchantId, account) {
    const changed = await db('merchants')
      .where({ id: merchantId })
      .update({ payout_bank_code: account.bankCode, payout_account_number: account.accountNumber, payout_account_name: account.accountName });
    return changed > 0;
  },
  async setFeeBps(merchantId, feeBps) {
    return (await db('merchants').where({ id: merchantId }).update({ fee_bps: feeBps })) > 0;
  },
  async count() {
    const [row] = await db('merchants').count<{ count: number }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  },
});
