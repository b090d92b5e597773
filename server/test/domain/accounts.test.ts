import { describe, expect, it } from 'vitest';
import { sessionState, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SECOND_FACTOR_WAIT_MS } from '../../src/domain/dashboard-session.js';
import { invitationState, INVITATION_VALID_MS } from '../../src/domain/invitation.js';
import { passwordProblem } from '../../src/domain/password-policy.js';
import { roles } from '../../src/domain/permissions.js';
import { isFreshStep, isTotpCode, normalizeCode } from '../../src/domain/second-factor.js';
import { ACCOUNT_FAILURE_LIMIT, lockedUntil } from '../../src/domain/sign-in-limits.js';
import { teamChangeRefusal } from '../../src/domain/team.js';

const t0 = new Date('2026-11-24T00:00:00Z').getTime();
const at = (minutes: number) => new Date(t0 + minutes * 60_000);

describe('the password policy', () => {
  it('wants 12 characters (counted as people count them), not the e-mail or its name, not a common password', () => {
    expect(passwordProblem('elevenchars', 'a@example.com')).toBe('too_short');
    expect(passwordProblem('ก'.repeat(12), 'a@example.com')).toBeNull(); // 12 Thai letters: 36 bytes, 12 characters
    expect(passwordProblem('Somchai.Jaidee@Example.com', 'somchai.jaidee@example.com')).toBe('is_email');
    expect(passwordProblem('somchai.jaidee', 'somchai.jaidee@example.com')).toBe('is_email');
    expect(passwordProblem('QWERTY123456', 'a@example.com')).toBe('common');
    expect(passwordProblem('1q2w3e4r5t6y', 'a@example.com')).toBe('common');
    expect(passwordProblem('x'.repeat(201), 'a@example.com')).toBe('too_long');
    expect(passwordProblem('mango sticky rice at noon', 'a@example.com')).toBeNull();
  });
});

describe('sign-in failures', () => {
  const limit = ACCOUNT_FAILURE_LIMIT;
  it('lock after 5 within 15 minutes, for 15 minutes from the fifth', () => {
    const four = [0, 1, 2, 3].map(at);
    expect(lockedUntil(four, limit, at(4))).toBeNull();
    const five = [...four, at(10)];
    expect(lockedUntil(five, limit, at(10))).toEqual(at(25));
    expect(lockedUntil(five, limit, at(24.9))).toEqual(at(25));
    expect(lockedUntil(five, limit, at(25))).toBeNull();
  });
  it('do not lock when spread wider than the window', () => {
    expect(lockedUntil([0, 4, 8, 12, 16].map(at), limit, at(16))).toBeNull(); // the first is 16 minutes before the last
    expect(lockedUntil([0, 4, 8, 12, 14.9].map(at), limit, at(15))).toEqual(at(29.9));
  });
});

describe('dashboard sessions', () => {
  const session = { createdAt: at(0), verifiedAt: at(0), lastSeenAt: at(0) };
  it('end when idle for 30 minutes or 12 hours after sign-in', () => {
    expect(sessionState(session, new Date(t0 + SESSION_IDLE_MS - 1))).toBe('active');
    expect(sessionState(session, new Date(t0 + SESSION_IDLE_MS))).toBe('expired');
    const busy = { ...session, lastSeenAt: new Date(t0 + SESSION_ABSOLUTE_MS - 60_000) };
    expect(sessionState(busy, new Date(t0 + SESSION_ABSOLUTE_MS - 1))).toBe('active');
    expect(sessionState(busy, new Date(t0 + SESSION_ABSOLUTE_MS))).toBe('expired');
  });
  it('wait 5 minutes for the second factor, and no longer', () => {
    const half = { ...session, verifiedAt: null };
    expect(sessionState(half, new Date(t0 + SECOND_FACTOR_WAIT_MS - 1))).toBe('awaiting_second_factor');
    expect(sessionState(half, new Date(t0 + SECOND_FACTOR_WAIT_MS))).toBe('expired');
  });
});

describe('second factors', () => {
  it('tell a TOTP code from a recovery code, and take each TOTP step once', () => {
    expect(isTotpCode(' 123 456 ')).toBe(true);
    expect(isTotpCode('abcde-fghjk-mnpqr')).toBe(false);
    expect(normalizeCode('ABCDE-FGHJK mnpqr')).toBe('abcdefghjkmnpqr');
    expect(isFreshStep(100, null)).toBe(true);
    expect(isFreshStep(100, 100)).toBe(false);
    expect(isFreshStep(101, 100)).toBe(true);
  });
});

describe('invitations', () => {
  it('are open for 72 hours until accepted or withdrawn', () => {
    const invitation = { expiresAt: new Date(t0 + INVITATION_VALID_MS), acceptedAt: null, revokedAt: null };
    expect(invitationState(invitation, new Date(t0 + INVITATION_VALID_MS - 1))).toBe('open');
    expect(invitationState(invitation, new Date(t0 + INVITATION_VALID_MS))).toBe('expired');
    expect(invitationState({ ...invitation, acceptedAt: at(1) }, at(2))).toBe('accepted');
    expect(invitationState({ ...invitation, revokedAt: at(1) }, at(2))).toBe('revoked');
  });
});

describe('team changes', () => {
  it('need team:write: owners and admins only', () => {
    const allowed = roles.filter((role) => teamChangeRefusal(role, { kind: 'invite', role: 'viewer' }, 1) === null);
    expect(allowed).toEqual(['owner', 'admin']);
  });
  it('leave owners to owners', () => {
    expect(teamChangeRefusal('admin', { kind: 'invite', role: 'owner' }, 1)).toBe('owners_only');
    expect(teamChangeRefusal('admin', { kind: 'change_role', from: 'owner', to: 'admin' }, 2)).toBe('owners_only');
    expect(teamChangeRefusal('admin', { kind: 'change_role', from: 'viewer', to: 'owner' }, 1)).toBe('owners_only');
    expect(teamChangeRefusal('admin', { kind: 'remove', role: 'owner' }, 2)).toBe('owners_only');
    expect(teamChangeRefusal('admin', { kind: 'change_role', from: 'viewer', to: 'admin' }, 1)).toBeNull();
    expect(teamChangeRefusal('owner', { kind: 'change_role', from: 'viewer', to: 'owner' }, 1)).toBeNull();
  });
  it('keep one owner', () => {
    expect(teamChangeRefusal('owner', { kind: 'remove', role: 'owner' }, 1)).toBe('last_owner');
    expect(teamChangeRefusal('owner', { kind: 'change_role', from: 'owner', to: 'admin' }, 1)).toBe('last_owner');
    expect(teamChangeRefusal('owner', { kind: 'remove', role: 'owner' }, 2)).toBeNull();
  });
});
