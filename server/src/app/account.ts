import { AccountError } from '../domain/account-errors.js';
import { auditUserEvent, userContext, type Client } from './account-audit.js';
import type { SignedIn } from './dashboard-sessions.js';
import { checkNewPassword } from './passwords.js';
import { newRecoveryCodes } from './recovery-codes.js';
import type { Services } from './services.js';

/** Changes to what proves who a user is ask for the current password again: a session left open is not enough. */
async function confirmPassword(s: Services, userId: string, password: string): Promise<void> {
  const found = await s.uow.repos.users.findById(userId);
  if (!found || !(await s.accounts.passwords.verify(password, found.credentials.passwordHash))) {
    throw new AccountError('wrong_password', 'The current password is not right.');
  }
}

/** A new password ends the user's other sessions (whoever had the old one is signed out). */
export async function changePassword(
  s: Services,
  signedIn: SignedIn,
  request: { current: string; next: string },
  client: Client,
): Promise<{ endedSessions: number }> {
  await confirmPassword(s, signedIn.user.id, request.current);
  checkNewPassword(request.next, signedIn.user.email);
  const hash = await s.accounts.passwords.hash(request.next);
  return s.uow.run(async (tx) => {
    await tx.users.setPassword(signedIn.user.id, hash, s.clock.now());
    const endedSessions = await tx.sessions.deleteOfUser(signedIn.user.id, signedIn.session.idHash);
    await auditUserEvent(tx, s, userContext(signedIn.user, client), signedIn.user.id, 'password_changed', { ended_sessions: endedSessions });
    return { endedSessions };
  });
}

/** A new TOTP secret to enrol: nothing changes until a code of it is confirmed. */
export const newSecondFactorSecret = (s: Services): string => s.accounts.secondFactor.newSecret();

/** The secret is the one the page showed (sent back with the form); one code of it and the password confirm it. */
export async function changeSecondFactor(
  s: Services,
  signedIn: SignedIn,
  request: { password: string; secret: string; code: string },
  client: Client,
): Promise<void> {
  await confirmPassword(s, signedIn.user.id, request.password);
  if (!/^[A-Z2-7]{32}$/.test(request.secret)) throw new AccountError('wrong_code', 'Start the second-factor change again.');
  const step = s.accounts.secondFactor.matchStep(request.secret, request.code, s.clock.now());
  if (step === null) throw new AccountError('wrong_code', 'That code does not match: enter the 6 digits your app shows now.');
  await s.uow.run(async (tx) => {
    await tx.users.setSecondFactor(signedIn.user.id, request.secret, step);
    await auditUserEvent(tx, s, userContext(signedIn.user, client), signedIn.user.id, 'second_factor_changed');
  });
}

/** Ten new recovery codes, shown once; the earlier ones stop working. */
export async function regenerateRecoveryCodes(s: Services, signedIn: SignedIn, request: { password: string }, client: Client): Promise<string[]> {
  await confirmPassword(s, signedIn.user.id, request.password);
  const recovery = newRecoveryCodes(s);
  await s.uow.run(async (tx) => {
    await tx.users.replaceRecoveryCodes(signedIn.user.id, recovery.hashes, s.clock.now());
    await auditUserEvent(tx, s, userContext(signedIn.user, client), signedIn.user.id, 'recovery_codes_regenerated');
  });
  return recovery.codes;
}

export const unusedRecoveryCodes = (s: Services, userId: string): Promise<number> => s.uow.repos.users.unusedRecoveryCodes(userId);
