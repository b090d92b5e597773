import type { Invitation, PendingEnrolment } from '../../../domain/invitation.js';
import type { Role } from '../../../domain/permissions.js';
import type { InvitationRepository } from '../../../ports/account-repositories.js';
import { rowsAffected, type Db } from './query.js';

interface InvitationRow {
  id: string;
  merchant_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  pending_password_hash: string | null;
  pending_totp_secret: string | null;
}

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  revokedAt: row.revoked_at,
});

export const invitationRepository = (db: Db): InvitationRepository => ({
  async insert(invitation, tokenHash) {
    await db('invitations').insert({
      id: invitation.id,
      merchant_id: invitation.merchantId,
      email: invitation.email,
      role: invitation.role,
      token_hash: tokenHash,
      invited_by: invitation.invitedBy,
      created_at: invitation.createdAt,
      expires_at: invitation.expiresAt,
    });
  },
  async findByTokenHash(tokenHash, options) {
    const query = db<InvitationRow>('invitations').where('token_hash', tokenHash);
    if (options?.lock) void query.forUpdate();
    const row = (await query)[0];
    if (!row) return null;
    const pending: PendingEnrolment | null =
      row.pending_password_hash && row.pending_totp_secret ? { passwordHash: row.pending_password_hash, totpSecret: row.pending_totp_secret } : null;
    return { invitation: toInvitation(row), pending };
  },
  async savePending(id, pending) {
    await db('invitations').where({ id }).update({ pending_password_hash: pending.passwordHash, pending_totp_secret: pending.totpSecret });
  },
  async markAccepted(id, at) {
    // What was pending is the user's now: the invitation keeps no secret.
    await db('invitations').where({ id }).update({ accepted_at: at, pending_password_hash: null, pending_totp_secret: null });
  },
  async listOpen(merchantId, now) {
    const rows = await db<InvitationRow>('invitations')
      .where({ merchant_id: merchantId })
      .whereNull('accepted_at')
      .whereNull('revoked_at')
      .where('expires_at', '>', now)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toInvitation);
  },
  async revoke(merchantId, id, at) {
    const updated = await db('invitations')
      .where({ merchant_id: merchantId, id })
      .whereNull('accepted_at')
      .whereNull('revoked_at')
      .update({ revoked_at: at, pending_password_hash: null, pending_totp_secret: null });
    return rowsAffected(updated) === 1;
  },
});
