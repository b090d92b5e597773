/** Idle for this long, a session ends. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** However active, a session ends this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000;
/** Between the password and the second factor: a half-open session lasts this long. */
export const SECOND_FACTOR_WAIT_MS = 5 * 60_000;
/** The last activity is written at most this often: a page view is not a write. */
export const SESSION_TOUCH_MS = 60_000;

/** A dashboard session as stored: its id is held only as a hash. */
export interface DashboardSession {
  idHash: string;
  userId: string;
  /** The merchant the user is looking at; null until the second factor is given. */
  merchantId: string | null;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** When the second factor was given; null: the password only, nothing may be seen yet. */
  verifiedAt: Date | null;
  clientAddress: string | null;
  userAgent: string | null;
}

export type SessionState = 'active' | 'awaiting_second_factor' | 'expired';

export function sessionState(session: Pick<DashboardSession, 'createdAt' | 'lastSeenAt' | 'verifiedAt'>, now: Date): SessionState {
  const at = now.getTime();
  if (session.verifiedAt === null) return at - session.createdAt.getTime() < SECOND_FACTOR_WAIT_MS ? 'awaiting_second_factor' : 'expired';
  if (at - session.lastSeenAt.getTime() >= SESSION_IDLE_MS) return 'expired';
  if (at - session.verifiedAt.getTime() >= SESSION_ABSOLUTE_MS) return 'expired';
  return 'active';
}

export const needsTouch = (session: Pick<DashboardSession, 'lastSeenAt'>, now: Date): boolean =>
  now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_MS;
