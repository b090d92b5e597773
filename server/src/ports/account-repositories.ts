import type { DashboardSession } from '../domain/dashboard-session.js';
import type { Invitation, PendingEnrolment } from '../domain/invitation.js';
import type { Mode } from '../domain/merchant.js';
import type { Role } from '../domain/permissions.js';
import type { Membership } from '../domain/team.js';
import type { Credentials, User } from '../domain/user.js';

export interface UserRepository {
  insert(user: User, credentials: Credentials): Promise<void>;
  findByEmail(email: string): Promise<{ user: User; credentials: Credentials } | null>;
  findById(id: string): Promise<{ user: User; credentials: Credentials } | null>;
  setPassword(id: string, passwordHash: string, at: Date): Promise<void>;
  /** A new TOTP secret; its step history starts again. */
  setSecondFactor(id: string, totpSecret: string, step: number): Promise<void>;
  /** Records a used TOTP step; false (nothing written) when that step or a later one was used already. */
  useTotpStep(id: string, step: number): Promise<boolean>;
  /** The user's recovery codes become these (hashes); the old ones stop working. */
  replaceRecoveryCodes(userId: string, codeHashes: readonly string[], at: Date): Promise<void>;
  /** Marks the code used; false when it is not one of the user's unused codes. */
  useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean>;
  unusedRecoveryCodes(userId: string): Promise<number>;
}

/** A membership with what the merchant switcher shows. */
export interface MembershipOfUser extends Membership {
  merchantName: string;
  merchantMode: Mode;
}

/** A membership with what the Team page shows. */
export interface TeamMember extends Membership {
  email: string;
}

export interface MembershipRepository {
  insert(membership: Membership): Promise<void>;
  find(userId: string, merchantId: string): Promise<Membership | null>;
  /** Oldest first: the first is where a sign-in lands. */
  listOfUser(userId: string): Promise<MembershipOfUser[]>;
  /** Every member, locked until the transaction ends with `lock` (team changes one at a time, so one owner always stays). */
  listOfMerchant(merchantId: string, options?: { lock?: boolean }): Promise<TeamMember[]>;
  setRole(userId: string, merchantId: string, role: Role): Promise<void>;
  delete(userId: string, merchantId: string): Promise<void>;
}

export interface InvitationRepository {
  insert(invitation: Invitation, tokenHash: string): Promise<void>;
  /** With `lock`, the invitation stays locked until the transaction ends (one acceptance). */
  findByTokenHash(tokenHash: string, options?: { lock?: boolean }): Promise<{ invitation: Invitation; pending: PendingEnrolment | null } | null>;
  savePending(id: string, pending: PendingEnrolment): Promise<void>;
  markAccepted(id: string, at: Date): Promise<void>;
  /** Open invitations of the merchant (not accepted, revoked or expired at `now`), newest first. */
  listOpen(merchantId: string, now: Date): Promise<Invitation[]>;
  /** False when the merchant has no such open invitation. */
  revoke(merchantId: string, id: string, at: Date): Promise<boolean>;
}

export interface SessionRepository {
  insert(session: DashboardSession): Promise<void>;
  findByIdHash(idHash: string): Promise<DashboardSession | null>;
  touch(idHash: string, at: Date): Promise<void>;
  setMerchant(idHash: string, merchantId: string): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Ends the user's sessions but the one kept (null: all); returns how many ended. */
  deleteOfUser(userId: string, keepIdHash: string | null): Promise<number>;
  /** Deletes sessions idle since `idleBefore`, signed in before `signedInBefore`, or half open since `halfOpenBefore`. */
  deleteEnded(cutoffs: { idleBefore: Date; signedInBefore: Date; halfOpenBefore: Date }): Promise<number>;
  /** The user's sessions, newest first (expired ones included: the caller judges with its clock). */
  listOfUser(userId: string): Promise<DashboardSession[]>;
}

export interface SignInFailure {
  email: string;
  clientAddress: string;
  at: Date;
}

export interface SignInFailureRepository {
  /**
   * The turn of one attempt at `email` until this unit of work ends (across every server instance): what the count of
   * failures says then stays true until the attempt is counted. False, at once: another attempt has the turn now.
   */
  takeTurn(email: string): Promise<boolean>;
  /** Counts a failure; its id lets a sign-in attempt that turns out right take it back. */
  record(failure: SignInFailure): Promise<string>;
  /** Takes back one counted failure: the attempt it stood for was right. */
  withdraw(id: string): Promise<void>;
  /** Failures for the address `email` since `since`. */
  ofEmail(email: string, since: Date): Promise<Date[]>;
  ofAddress(clientAddress: string, since: Date): Promise<Date[]>;
  /** A successful sign-in starts the account's count again. */
  clearEmail(email: string): Promise<void>;
  purgeOlderThan(cutoff: Date): Promise<number>;
}

/** The dashboard's accounts, as part of every unit of work. */
export interface AccountRepositories {
  users: UserRepository;
  memberships: MembershipRepository;
  invitations: InvitationRepository;
  sessions: SessionRepository;
  signInFailures: SignInFailureRepository;
}
