import { AccountError } from '../domain/account-errors.js';
import { needsTouch, SECOND_FACTOR_WAIT_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionState, type DashboardSession } from '../domain/dashboard-session.js';
import { FAILURES_LOOKBACK_MS } from '../domain/sign-in-limits.js';
import type { Merchant } from '../domain/merchant.js';
import type { Membership } from '../domain/team.js';
import type { User } from '../domain/user.js';
import type { MembershipOfUser } from '../ports/account-repositories.js';
import type { Repositories } from '../ports/repositories.js';
import { auditUserEvent, userContext, type Client } from './account-audit.js';
import type { Services } from './services.js';

/** A session as the browser gets it: the id (its cookie) and the CSRF token of its forms; the database keeps a hash of the id. */
export interface OpenedSession {
  id: string;
  csrfToken: string;
}

const USER_AGENT_MAX = 200;

/** Opens a signed-in session (both factors given) on `merchantId`. */
export async function openSession(tx: Repositories, s: Services, userId: string, merchantId: string | null, client: Client): Promise<OpenedSession> {
  const now = s.clock.now();
  const opened = { id: s.accounts.tokens.token(), csrfToken: s.accounts.tokens.token() };
  await tx.sessions.insert(sessionRow(s, opened, userId, merchantId, now, now, client));
  return opened;
}

export function sessionRow(
  s: Services,
  opened: OpenedSession,
  userId: string,
  merchantId: string | null,
  now: Date,
  verifiedAt: Date | null,
  client: Client,
): DashboardSession {
  return {
    idHash: s.accounts.tokens.hash(opened.id),
    userId,
    merchantId,
    csrfToken: opened.csrfToken,
    createdAt: now,
    lastSeenAt: now,
    verifiedAt,
    clientAddress: client.address,
    userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
  };
}

/** Everything a dashboard page needs to know about who asks. */
export interface SignedIn {
  user: User;
  session: DashboardSession;
  /** The merchant being looked at and the user's role there; null when the user is a member of none (any more). */
  membership: Membership | null;
  merchant: Merchant | null;
  /** Every merchant the user may switch to. */
  memberships: MembershipOfUser[];
}

/**
 * The signed-in user behind a session id, or null when the session is unknown, half-open (password only) or over
 * (idle 30 minutes, or 12 hours after sign-in: it is deleted then). Activity is recorded at most once a minute.
 */
export async function resumeSession(s: Services, sessionId: string): Promise<SignedIn | null> {
  const repos = s.uow.repos;
  const idHash = s.accounts.tokens.hash(sessionId);
  const session = await repos.sessions.findByIdHash(idHash);
  if (!session) return null;
  const now = s.clock.now();
  const state = sessionState(session, now);
  if (state === 'expired') await repos.sessions.delete(idHash);
  if (state !== 'active') return null;
  const found = await repos.users.findById(session.userId);
  if (!found) return null;
  if (needsTouch(session, now)) await repos.sessions.touch(idHash, now);
  const memberships = await repos.memberships.listOfUser(session.userId);
  const current = memberships.find((m) => m.merchantId === session.merchantId) ?? memberships[0] ?? null;
  if (current && current.merchantId !== session.merchantId) await repos.sessions.setMerchant(idHash, current.merchantId);
  const merchant = current ? await repos.merchants.findById(current.merchantId) : null;
  const membership: Membership | null = current && { userId: current.userId, merchantId: current.merchantId, role: current.role, createdAt: current.createdAt };
  return { user: found.user, session: { ...session, lastSeenAt: now, merchantId: current?.merchantId ?? null }, membership, merchant, memberships };
}

/** The merchant switcher: only a merchant the user is a member of. */
export async function switchMerchant(s: Services, signedIn: SignedIn, merchantId: string): Promise<void> {
  if (!signedIn.memberships.some((m) => m.merchantId === merchantId)) throw new AccountError('not_a_member', 'You are not a member of that merchant.');
  await s.uow.repos.sessions.setMerchant(signedIn.session.idHash, merchantId);
}

/** The user's sessions still open (this one included), newest first. */
export async function openSessions(s: Services, userId: string): Promise<DashboardSession[]> {
  const now = s.clock.now();
  return (await s.uow.repos.sessions.listOfUser(userId)).filter((session) => sessionState(session, now) === 'active');
}

/** Sign-out: the session ends (recorded in the user's merchants' audit logs when it was a signed-in one). */
export async function endSession(s: Services, sessionId: string, signedIn: SignedIn | null, client: Client): Promise<void> {
  const idHash = s.accounts.tokens.hash(sessionId);
  await s.uow.run(async (tx) => {
    await tx.sessions.delete(idHash);
    if (signedIn && signedIn.session.idHash === idHash)
      await auditUserEvent(tx, s, userContext(signedIn.user, client), signedIn.user.id, 'sign_out', { sessions: 'this' });
  });
}

/** "Sign out elsewhere": every other session of the user ends; returns how many did. */
export async function signOutElsewhere(s: Services, signedIn: SignedIn, client: Client): Promise<number> {
  return s.uow.run(async (tx) => {
    const ended = await tx.sessions.deleteOfUser(signedIn.user.id, signedIn.session.idHash);
    await auditUserEvent(tx, s, userContext(signedIn.user, client), signedIn.user.id, 'sign_out', { sessions: 'others', ended });
    return ended;
  });
}

/** The sweeper's share: ended sessions nobody came back to, and failed sign-ins too old to count for any limit. */
export async function purgeEndedSessions(s: Services): Promise<{ sessions: number; failures: number }> {
  const now = s.clock.now().getTime();
  const sessions = await s.uow.repos.sessions.deleteEnded({
    idleBefore: new Date(now - SESSION_IDLE_MS),
    signedInBefore: new Date(now - SESSION_ABSOLUTE_MS),
    halfOpenBefore: new Date(now - SECOND_FACTOR_WAIT_MS),
  });
  const failures = await s.uow.repos.signInFailures.purgeOlderThan(new Date(now - FAILURES_LOOKBACK_MS));
  return { sessions, failures };
}
