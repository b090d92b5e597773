import { AccountError } from '../domain/account-errors.js';
import { operatorContext, type AuditContext } from '../domain/audit.js';
import { invitationExpiry, invitationState, type Invitation } from '../domain/invitation.js';
import { isRole, roles, type Role } from '../domain/permissions.js';
import { teamChangeRefusal } from '../domain/team.js';
import { isEmail, normalizeEmail, type User } from '../domain/user.js';
import type { Repositories } from '../ports/repositories.js';
import { userContext, type Client } from './account-audit.js';
import { recordAudit } from './audit.js';
import { openSession, type OpenedSession, type SignedIn } from './dashboard-sessions.js';
import { checkNewPassword } from './passwords.js';
import { newRecoveryCodes } from './recovery-codes.js';
import type { Services } from './services.js';
import { refusalError, type ActingMember } from './team.js';

/** An invitation and the one-time token of its URL (`/dashboard/invitations/{token}`), which is stored only hashed. */
export interface IssuedInvitation {
  invitation: Invitation;
  token: string;
}

function checkInvitee(email: string, role: string): { email: string; role: Role } {
  const address = normalizeEmail(email);
  if (!isEmail(address)) throw new AccountError('invalid_email', `'${email}' is not an e-mail address.`);
  if (!isRole(role)) throw new AccountError('forbidden', `'${role}' is not a role (${roles.join(', ')}).`);
  return { email: address, role };
}

async function issue(tx: Repositories, s: Services, context: AuditContext, merchantId: string, email: string, role: Role, invitedBy: string | null) {
  const now = s.clock.now();
  const token = s.accounts.tokens.token();
  const invitation: Invitation = {
    id: s.ids.next('invitation'),
    merchantId,
    email,
    role,
    invitedBy,
    createdAt: now,
    expiresAt: invitationExpiry(now),
    acceptedAt: null,
    revokedAt: null,
  };
  await tx.invitations.insert(invitation, s.accounts.tokens.hash(token));
  await recordAudit(tx, s, context, merchantId, 'invitation_created', invitation.id, { email, role });
  return { invitation, token };
}

/** The operator invites a merchant's people (the CLI, the first start's sandbox owner). */
export async function inviteAsOperator(s: Services, merchantId: string, email: string, role: string): Promise<IssuedInvitation> {
  const invitee = checkInvitee(email, role);
  if (!(await s.uow.repos.merchants.findById(merchantId))) throw new AccountError('unknown_merchant', `No merchant with id '${merchantId}'.`);
  return s.uow.run((tx) => issue(tx, s, operatorContext, merchantId, invitee.email, invitee.role, null));
}

/** An owner or admin invites from the Team page (admins cannot invite owners). */
export async function inviteMember(s: Services, actor: ActingMember, email: string, role: string, client: Client): Promise<IssuedInvitation> {
  const invitee = checkInvitee(email, role);
  return s.uow.run(async (tx) => {
    const team = await tx.memberships.listOfMerchant(actor.merchantId, { lock: true });
    const refusal = teamChangeRefusal(actor.role, { kind: 'invite', role: invitee.role }, team.filter((m) => m.role === 'owner').length);
    if (refusal) throw refusalError(refusal);
    if (team.some((member) => member.email === invitee.email)) throw new AccountError('already_member', `${invitee.email} is a member already.`);
    return issue(tx, s, userContext({ id: actor.userId, email: actor.email }, client), actor.merchantId, invitee.email, invitee.role, actor.userId);
  });
}

export async function revokeInvitation(s: Services, actor: ActingMember, invitationId: string, client: Client): Promise<void> {
  await s.uow.run(async (tx) => {
    const open = (await tx.invitations.listOpen(actor.merchantId, s.clock.now())).find((invitation) => invitation.id === invitationId);
    if (!open) throw new AccountError('invitation_unusable', 'No such open invitation.');
    const refusal = teamChangeRefusal(actor.role, { kind: 'invite', role: open.role }, Number.MAX_SAFE_INTEGER);
    if (refusal) throw refusalError(refusal);
    await tx.invitations.revoke(actor.merchantId, invitationId, s.clock.now());
    await recordAudit(tx, s, userContext({ id: actor.userId, email: actor.email }, client), actor.merchantId, 'invitation_revoked', invitationId, {
      email: open.email,
      role: open.role,
    });
  });
}

/** What the invitation page shows; the same refusal for an unknown, used, revoked or expired token. */
export interface OpenInvitation {
  invitation: Invitation;
  merchantName: string;
  /** The e-mail has an account already: accepting needs that account signed in. */
  existingUser: boolean;
  /** The TOTP secret to enrol, once a password was chosen. */
  pendingSecret: string | null;
}

const unusable = () => new AccountError('invitation_unusable', 'This invitation link is not valid: it was used, withdrawn or is older than 72 hours.');

export async function openInvitation(s: Services, token: string): Promise<OpenInvitation> {
  const found = await s.uow.repos.invitations.findByTokenHash(s.accounts.tokens.hash(token));
  if (!found || invitationState(found.invitation, s.clock.now()) !== 'open') throw unusable();
  const merchant = await s.uow.repos.merchants.findById(found.invitation.merchantId);
  const existing = await s.uow.repos.users.findByEmail(found.invitation.email);
  return {
    invitation: found.invitation,
    merchantName: merchant?.name ?? '',
    existingUser: existing !== null,
    pendingSecret: found.pending?.totpSecret ?? null,
  };
}

/** Step 1 of accepting: the password, kept (hashed) on the invitation with a new TOTP secret to enrol. */
export async function choosePassword(s: Services, token: string, password: string): Promise<{ totpSecret: string }> {
  const opened = await openInvitation(s, token);
  if (opened.existingUser) throw unusable();
  checkNewPassword(password, opened.invitation.email);
  const pending = { passwordHash: await s.accounts.passwords.hash(password), totpSecret: s.accounts.secondFactor.newSecret() };
  await s.uow.run(async (tx) => {
    const found = await tx.invitations.findByTokenHash(s.accounts.tokens.hash(token), { lock: true });
    if (!found || invitationState(found.invitation, s.clock.now()) !== 'open') throw unusable();
    await tx.invitations.savePending(found.invitation.id, pending);
  });
  return { totpSecret: pending.totpSecret };
}

/** The new user, signed in, with the recovery codes shown once. */
export interface AcceptedInvitation {
  user: User;
  merchantId: string;
  session: OpenedSession;
  recoveryCodes: string[];
}

/** Step 2: one TOTP code confirms the enrolment; the user, the membership and a signed-in session are made at once. */
export async function confirmEnrolment(s: Services, token: string, code: string, client: Client): Promise<AcceptedInvitation> {
  const now = s.clock.now();
  const recovery = newRecoveryCodes(s);
  return s.uow.run(async (tx) => {
    const found = await tx.invitations.findByTokenHash(s.accounts.tokens.hash(token), { lock: true });
    if (!found || invitationState(found.invitation, now) !== 'open' || !found.pending) throw unusable();
    const { invitation, pending } = found;
    const step = s.accounts.secondFactor.matchStep(pending.totpSecret, code, now);
    if (step === null) throw new AccountError('wrong_code', 'That code does not match: enter the 6 digits your app shows now.');
    if (await tx.users.findByEmail(invitation.email)) throw unusable();
    const user: User = { id: s.ids.next('user'), email: invitation.email, createdAt: now, passwordChangedAt: now };
    await tx.users.insert(user, { passwordHash: pending.passwordHash, totpSecret: pending.totpSecret, totpLastStep: step });
    await tx.users.replaceRecoveryCodes(user.id, recovery.hashes, now);
    await tx.memberships.insert({ userId: user.id, merchantId: invitation.merchantId, role: invitation.role, createdAt: now });
    await tx.invitations.markAccepted(invitation.id, now);
    await recordAudit(tx, s, userContext(user, client), invitation.merchantId, 'invitation_accepted', invitation.id, {
      email: user.email,
      role: invitation.role,
    });
    const session = await openSession(tx, s, user.id, invitation.merchantId, client);
    return { user, merchantId: invitation.merchantId, session, recoveryCodes: recovery.codes };
  });
}

/** A user who has an account already joins one more merchant, signed in as the invited e-mail; the session turns to it. */
export async function acceptAsUser(s: Services, token: string, signedIn: Pick<SignedIn, 'user' | 'session'>, client: Client): Promise<{ merchantId: string }> {
  const { user } = signedIn;
  const now = s.clock.now();
  return s.uow.run(async (tx) => {
    const found = await tx.invitations.findByTokenHash(s.accounts.tokens.hash(token), { lock: true });
    if (!found || invitationState(found.invitation, now) !== 'open' || found.invitation.email !== user.email) throw unusable();
    const { invitation } = found;
    if (await tx.memberships.find(user.id, invitation.merchantId)) throw new AccountError('already_member', 'You are a member of this merchant already.');
    await tx.memberships.insert({ userId: user.id, merchantId: invitation.merchantId, role: invitation.role, createdAt: now });
    await tx.invitations.markAccepted(invitation.id, now);
    await recordAudit(tx, s, userContext(user, client), invitation.merchantId, 'invitation_accepted', invitation.id, {
      email: user.email,
      role: invitation.role,
    });
    await tx.sessions.setMerchant(signedIn.session.idHash, invitation.merchantId);
    return { merchantId: invitation.merchantId };
  });
}
