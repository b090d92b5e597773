import { roleMay, type Role } from './permissions.js';

/** A user's place in a merchant: one role each. */
export interface Membership {
  userId: string;
  merchantId: string;
  role: Role;
  createdAt: Date;
}

export type TeamChange = { kind: 'invite'; role: Role } | { kind: 'change_role'; from: Role; to: Role } | { kind: 'remove'; role: Role };

export type TeamRefusal = 'forbidden' | 'owners_only' | 'last_owner';

/**
 * Whether a member with `actorRole` may make the change, and why not. Team changes need `team:write`; only owners
 * touch owners (admins neither invite, promote to, demote nor remove one); a merchant always keeps one owner.
 */
export function teamChangeRefusal(actorRole: Role, change: TeamChange, ownerCount: number): TeamRefusal | null {
  if (!roleMay(actorRole, 'team:write')) return 'forbidden';
  const touchesOwner =
    change.kind === 'invite' ? change.role === 'owner' : change.kind === 'remove' ? change.role === 'owner' : change.from === 'owner' || change.to === 'owner';
  if (touchesOwner && actorRole !== 'owner') return 'owners_only';
  const losesOwner =
    (change.kind === 'remove' && change.role === 'owner') || (change.kind === 'change_role' && change.from === 'owner' && change.to !== 'owner');
  if (losesOwner && ownerCount <= 1) return 'last_owner';
  return null;
}
