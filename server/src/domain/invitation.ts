import type { Role } from './permissions.js';

/** An invitation URL works for 72 hours, once. */
export const INVITATION_VALID_MS = 72 * 3_600_000;

export interface Invitation {
  id: string;
  merchantId: string;
  email: string;
  role: Role;
  /** The member who invited; null: the operator (CLI, first start). */
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

/** Between the password and the confirmed second factor, the invitation keeps what the person chose. */
export interface PendingEnrolment {
  passwordHash: string;
  totpSecret: string;
}

export type InvitationState = 'open' | 'accepted' | 'revoked' | 'expired';

export function invitationState(invitation: Pick<Invitation, 'expiresAt' | 'acceptedAt' | 'revokedAt'>, now: Date): InvitationState {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  return now.getTime() < invitation.expiresAt.getTime() ? 'open' : 'expired';
}

export const invitationExpiry = (createdAt: Date): Date => new Date(createdAt.getTime() + INVITATION_VALID_MS);
