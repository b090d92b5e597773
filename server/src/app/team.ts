import { AccountError } from '../domain/account-errors.js';
import type { Invitation } from '../domain/invitation.js';
import { isRole, type Role } from '../domain/permissions.js';
import { teamChangeRefusal, type TeamRefusal } from '../domain/team.js';
import type { TeamMember } from '../ports/account-repositories.js';
import { userContext, type Client } from './account-audit.js';
import { recordAudit } from './audit.js';
import type { Services } from './services.js';

/** Who acts on a merchant's team: a signed-in member and their role there. */
export interface ActingMember {
  userId: string;
  email: string;
  merchantId: string;
  role: Role;
}

const refusalMessages: Record<TeamRefusal, string> = {
  forbidden: 'Your role may not change the team.',
  owners_only: 'Only an owner may invite, change or remove an owner.',
  last_owner: 'A merchant keeps at least one owner.',
};

export const refusalError = (refusal: TeamRefusal): AccountError => new AccountError(refusal, refusalMessages[refusal]);

export async function listTeam(s: Services, merchantId: string): Promise<{ members: TeamMember[]; invitations: Invitation[] }> {
  const [members, invitations] = await Promise.all([
    s.uow.repos.memberships.listOfMerchant(merchantId),
    s.uow.repos.invitations.listOpen(merchantId, s.clock.now()),
  ]);
  return { members, invitations };
}

function roleOf(text: string): Role {
  if (!isRole(text)) throw new AccountError('forbidden', `'${text}' is not a role.`);
  return text;
}

/** The team, locked for this transaction (so two changes cannot each leave the other as the last owner), and the target. */
async function lockedTarget(tx: Parameters<Parameters<Services['uow']['run']>[0]>[0], actor: ActingMember, userId: string) {
  const team = await tx.memberships.listOfMerchant(actor.merchantId, { lock: true });
  const target = team.find((member) => member.userId === userId);
  if (!target) throw new AccountError('not_a_member', 'No such member.');
  return { target, owners: team.filter((member) => member.role === 'owner').length };
}

export async function changeRole(s: Services, actor: ActingMember, userId: string, newRole: string, client: Client): Promise<void> {
  const to = roleOf(newRole);
  await s.uow.run(async (tx) => {
    const { target, owners } = await lockedTarget(tx, actor, userId);
    const refusal = teamChangeRefusal(actor.role, { kind: 'change_role', from: target.role, to }, owners);
    if (refusal) throw refusalError(refusal);
    if (target.role === to) return;
    await tx.memberships.setRole(userId, actor.merchantId, to);
    await recordAudit(tx, s, userContext({ id: actor.userId, email: actor.email }, client), actor.merchantId, 'role_changed', userId, {
      email: target.email,
      from: target.role,
      to,
    });
  });
}

/** The member loses access to this merchant at once (their sessions stay, on their other merchants). */
export async function removeMember(s: Services, actor: ActingMember, userId: string, client: Client): Promise<void> {
  await s.uow.run(async (tx) => {
    const { target, owners } = await lockedTarget(tx, actor, userId);
    const refusal = teamChangeRefusal(actor.role, { kind: 'remove', role: target.role }, owners);
    if (refusal) throw refusalError(refusal);
    await tx.memberships.delete(userId, actor.merchantId);
    await recordAudit(tx, s, userContext({ id: actor.userId, email: actor.email }, client), actor.merchantId, 'member_removed', userId, {
      email: target.email,
      role: target.role,
    });
  });
}
