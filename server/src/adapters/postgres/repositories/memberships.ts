import type { Mode } from '../../../domain/merchant.js';
import type { Role } from '../../../domain/permissions.js';
import type { Membership } from '../../../domain/team.js';
import type { MembershipRepository } from '../../../ports/account-repositories.js';
import type { Db } from './query.js';

interface MembershipRow {
  user_id: string;
  merchant_id: string;
  role: Role;
  created_at: Date;
}

const toMembership = (row: MembershipRow): Membership => ({ userId: row.user_id, merchantId: row.merchant_id, role: row.role, createdAt: row.created_at });

export const membershipRepository = (db: Db): MembershipRepository => ({
  async insert(membership) {
    await db('memberships').insert({
      user_id: membership.userId,
      merchant_id: membership.merchantId,
      role: membership.role,
      created_at: membership.createdAt,
    });
  },
  async find(userId, merchantId) {
    const row = await db<MembershipRow>('memberships').where({ user_id: userId, merchant_id: merchantId }).first();
    return row ? toMembership(row) : null;
  },
  async listOfUser(userId) {
    const rows = await db('memberships as m')
      .join('merchants as c', 'c.id', 'm.merchant_id')
      .where('m.user_id', userId)
      .orderBy([
        { column: 'm.created_at', order: 'asc' },
        { column: 'm.merchant_id', order: 'asc' },
      ])
      .select<(MembershipRow & { merchant_name: string; merchant_mode: Mode })[]>('m.*', { merchant_name: 'c.name', merchant_mode: 'c.mode' });
    return rows.map((row) => ({ ...toMembership(row), merchantName: row.merchant_name, merchantMode: row.merchant_mode }));
  },
  async listOfMerchant(merchantId, options) {
    const query = db('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where('m.merchant_id', merchantId)
      .orderBy([
        { column: 'm.created_at', order: 'asc' },
        { column: 'm.user_id', order: 'asc' },
      ])
      .select<(MembershipRow & { email: string })[]>('m.*', 'u.email');
    if (options?.lock) void query.forUpdate('m');
    return (await query).map((row) => ({ ...toMembership(row), email: row.email }));
  },
  async setRole(userId, merchantId, role) {
    await db('memberships').where({ user_id: userId, merchant_id: merchantId }).update({ role });
  },
  async delete(userId, merchantId) {
    await db('memberships').where({ user_id: userId, merchant_id: merchantId }).delete();
  },
});
