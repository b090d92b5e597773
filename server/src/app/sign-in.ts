import { AccountError } from '../domain/account-errors.js';
import type { AuditEntry } from '../domain/audit.js';
import { sessionState } from '../domain/dashboard-session.js';
import { isFreshStep, isTotpCode } from '../domain/second-factor.js';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT, FAILURES_LOOKBACK_MS, lockedUntil } from '../domain/sign-in-limits.js';
import { normalizeEmail, type User } from '../domain/user.js';
import type { PasswordHasher } from '../ports/accounts.js';
import type { Repositories } from '../ports/repositories.js';
import { auditUserEvent, userContext, type Client } from './account-audit.js';
import { openSession, sessionRow, type OpenedSession } from './dashboard-sessions.js';
import { recoveryCodeHash } from './recovery-codes.js';
import type { Services } from './services.js';

/** Every failure says the same thing: no telling a wrong password from an unknown e-mail, a wrong code or a lock. */
const failed = () => new AccountError('sign_in_failed', 'Sign-in failed: check the e-mail, password and code, or wait 15 minutes and try again.');

// A hash to check a password against when the e-mail is unknown, so both cases take as long.
const decoys = new WeakMap<PasswordHasher, Promise<string>>();
const decoyOf = (hasher: PasswordHasher, s: Services): Promise<string> => {
  const known = decoys.get(hasher) ?? hasher.hash(s.accounts.tokens.token());
  decoys.set(hasher, known);
  return known;
};

async function isLocked(repos: Repositories, now: Date, email: string, client: Client): Promise<boolean> {
  const since = new Date(now.getTime() - FAILURES_LOOKBACK_MS);
  const ofEmail = await repos.signInFailures.ofEmail(email, since);
  const ofAddress = await repos.signInFailures.ofAddress(client.address, since);
  return lockedUntil(ofEmail, ACCOUNT_FAILURE_LIMIT, now) !== null || lockedUntil(ofAddress, ADDRESS_FAILURE_LIMIT, now) !== null;
}

/**
 * Counts an attempt as a failure before it is judged, one attempt at an account at a time (in the database, so across
 * instances): however many arrive at once, the 6th in a window finds 5 counted and is refused unjudged, even when right;
 * one arriving while another is being counted is refused too, unjudged and uncounted. Null: refused so. An attempt
 * that turns out right takes its count back (`withdraw`).
 */
function countBeforeJudging(s: Services, email: string, client: Client): Promise<string | null> {
  const now = s.clock.now();
  return s.uow.run(async (tx) => {
    if (!(await tx.signInFailures.takeTurn(email)) || (await isLocked(tx, now, email, client))) return null;
    return tx.signInFailures.record({ email, clientAddress: client.address, at: now });
  });
}

/** A judged attempt was wrong: its count stays, and the user's merchants' audit logs say so. */
async function auditFailure(s: Services, user: User | null, client: Client, step: 'password' | 'second_factor'): Promise<void> {
  if (user) await s.uow.run((tx) => auditUserEvent(tx, s, userContext(user, client), user.id, 'sign_in_failed', { step }));
}

/**
 * Step 1: the e-mail and password. Right, they open a half session that only the second factor can complete (within
 * 5 minutes); wrong, unknown or locked, the same error.
 */
export async function signInWithPassword(s: Services, request: { email: string; password: string }, client: Client): Promise<{ pendingSessionId: string }> {
  const email = normalizeEmail(request.email);
  const counted = await countBeforeJudging(s, email, client);
  if (counted === null) throw failed();
  const found = await s.uow.repos.users.findByEmail(email);
  const matches = await s.accounts.passwords.verify(request.password, found?.credentials.passwordHash ?? (await decoyOf(s.accounts.passwords, s)));
  if (!found || !matches) {
    await auditFailure(s, found?.user ?? null, client, 'password');
    throw failed();
  }
  await s.uow.repos.signInFailures.withdraw(counted);
  const pending = { id: s.accounts.tokens.token(), csrfToken: s.accounts.tokens.token() };
  const now = s.clock.now();
  await s.uow.repos.sessions.insert(sessionRow(s, pending, found.user.id, null, now, null, client));
  return { pendingSessionId: pending.id };
}

/** Whether a half session is waiting for its second factor (the login page's second step is shown only then). */
export async function awaitsSecondFactor(s: Services, pendingSessionId: string): Promise<boolean> {
  const session = await s.uow.repos.sessions.findByIdHash(s.accounts.tokens.hash(pendingSessionId));
  return session !== null && sessionState(session, s.clock.now()) === 'awaiting_second_factor';
}

/**
 * Step 2: a TOTP code (once each) or an unused recovery code. The half session is replaced by a new signed-in one (a
 * new id: the one before the second factor is worth nothing), on the user's first merchant.
 */
export async function completeSignIn(
  s: Services,
  pendingSessionId: string,
  code: string,
  client: Client,
): Promise<OpenedSession & { merchantId: string | null }> {
  const repos = s.uow.repos;
  const pendingHash = s.accounts.tokens.hash(pendingSessionId);
  const pending = await repos.sessions.findByIdHash(pendingHash);
  if (!pending || sessionState(pending, s.clock.now()) !== 'awaiting_second_factor') throw failed();
  const found = await repos.users.findById(pending.userId);
  if (!found) throw failed();
  const { user, credentials } = found;
  if ((await countBeforeJudging(s, user.email, client)) === null) {
    await repos.sessions.delete(pendingHash);
    throw failed();
  }
  const now = s.clock.now();
  const method = isTotpCode(code) ? 'totp' : 'recovery_code';
  const opened = await s.uow.run(async (tx) => {
    if (method === 'totp') {
      const step = s.accounts.secondFactor.matchStep(credentials.totpSecret, code, now);
      if (step === null || !isFreshStep(step, credentials.totpLastStep) || !(await tx.users.useTotpStep(user.id, step))) return null;
    } else if (!(await tx.users.useRecoveryCode(user.id, recoveryCodeHash(s, code), now))) return null;
    await tx.sessions.delete(pendingHash);
    await tx.signInFailures.clearEmail(user.email); // this attempt's count too
    const first = (await tx.memberships.listOfUser(user.id))[0] ?? null;
    const session = await openSession(tx, s, user.id, first?.merchantId ?? null, client);
    const details: AuditEntry['details'] = { method };
    if (method === 'recovery_code') details.recovery_codes_left = await tx.users.unusedRecoveryCodes(user.id);
    await auditUserEvent(tx, s, userContext(user, client), user.id, 'sign_in', details);
    return { ...session, merchantId: first?.merchantId ?? null };
  });
  if (opened) return opened;
  await auditFailure(s, user, client, 'second_factor');
  if (await isLocked(repos, s.clock.now(), user.email, client)) await repos.sessions.delete(pendingHash);
  throw failed();
}
