import type { AuditAction, AuditContext, AuditEntry } from '../domain/audit.js';
import type { Repositories } from '../ports/repositories.js';
import type { Services } from './services.js';

/** Records an action in the audit log: call it with the transaction of the action, so both commit or neither does. */
export async function recordAudit(
  tx: Repositories,
  s: Services,
  context: AuditContext,
  merchantId: string | null,
  action: AuditAction,
  subjectId: string | null,
  details: AuditEntry['details'] = {},
): Promise<void> {
  await tx.audit.record({ id: s.ids.next('audit'), merchantId, context, action, subjectId, details, createdAt: s.clock.now() });
}
