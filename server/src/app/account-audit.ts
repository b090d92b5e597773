import type { AuditAction, AuditContext, AuditEntry } from '../domain/audit.js';
import type { User } from '../domain/user.js';
import type { Repositories } from '../ports/repositories.js';
import { recordAudit } from './audit.js';
import type { Services } from './services.js';

/** Where a dashboard request comes from, as the audit log and the per-address limits see it. */
export interface Client {
  address: string;
  userAgent: string | null;
}

export const userContext = (user: Pick<User, 'id' | 'email'>, client: Pick<Client, 'address'>): AuditContext => ({
  actor: { kind: 'user', userId: user.id, email: user.email },
  channel: 'dashboard',
  clientAddress: client.address,
});

/**
 * A user's own event (a sign-in, a new password) concerns every merchant they may act for: it is written into each
 * one's audit log, in the transaction of the change.
 */
export async function auditUserEvent(
  tx: Repositories,
  s: Services,
  context: AuditContext,
  userId: string,
  action: AuditAction,
  details: AuditEntry['details'] = {},
): Promise<void> {
  const memberships = await tx.memberships.listOfUser(userId);
  for (const membership of memberships) await recordAudit(tx, s, context, membership.merchantId, action, userId, details);
}
