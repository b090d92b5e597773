import type { DashboardSession } from '../../../domain/dashboard-session.js';
import type { SessionRepository } from '../../../ports/account-repositories.js';
import { rowsAffected, type Db } from './query.js';

interface SessionRow {
  id_hash: string;
  user_id: string;
  merchant_id: string | null;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  verified_at: Date | null;
  client_address: string | null;
  user_agent: string | null;
}

const toSession = (row: SessionRow): DashboardSession => ({
  idHash: row.id_hash,
  userId: row.user_id,
  merchantId: row.merchant_id,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  verifiedAt: row.verified_at,
  clientAddress: row.client_address,
  userAgent: row.user_agent,
});

export const sessionRepository = (db: Db): SessionRepository => ({
  async insert(session) {
    await db('dashboard_sessions').insert({
      id_hash: session.idHash,
      user_id: session.userId,
      merchant_id: session.merchantId,
      csrf_token: session.csrfToken,
      created_at: session.createdAt,
      last_seen_at: session.lastSeenAt,
      verified_at: session.verifiedAt,
      client_address: session.clientAddress,
      user_agent: session.userAgent,
    });
  },
  async findByIdHash(idHash) {
    const row = await db<SessionRow>('dashboard_sessions').where({ id_hash: idHash }).first();
    return row ? toSession(row) : null;
  },
  async touch(idHash, at) {
    await db('dashboard_sessions').where({ id_hash: idHash }).update({ last_seen_at: at });
  },
  async setMerchant(idHash, merchantId) {
    await db('dashboard_sessions').where({ id_hash: idHash }).update({ merchant_id: merchantId });
  },
  async delete(idHash) {
    await db('dashboard_sessions').where({ id_hash: idHash }).delete();
  },
  async deleteOfUser(userId, keepIdHash) {
    const query = db('dashboard_sessions').where({ user_id: userId });
    if (keepIdHash !== null) void query.whereNot({ id_hash: keepIdHash });
    return rowsAffected(await query.delete());
  },
  async deleteEnded({ idleBefore, signedInBefore, halfOpenBefore }) {
    const ended = db('dashboard_sessions')
      .where('last_seen_at', '<=', idleBefore)
      .orWhere('verified_at', '<=', signedInBefore)
      .orWhere((q) => {
        void q.whereNull('verified_at').where('created_at', '<=', halfOpenBefore);
      });
    return rowsAffected(await ended.delete());
  },
  async listOfUser(userId) {
    const rows = await db<SessionRow>('dashboard_sessions')
      .where({ user_id: userId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id_hash', order: 'asc' },
      ]);
    return rows.map(toSession);
  },
});
