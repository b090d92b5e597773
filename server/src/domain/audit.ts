/** The dashboard member who made an API key: named beside the key in every audit entry of its use. */
export interface KeyMaker {
  userId: string;
  email: string;
}

/**
 * Who did something: a dashboard user, an API key (known by its last four characters, and by the member who made it
 * when a member did), or the operator's CLI.
 */
export type AuditActor =
  | { kind: 'user'; userId: string; email: string }
  | { kind: 'api_key'; keyId: string; last4: string; madeBy?: KeyMaker }
  | { kind: 'operator' };

/** The door it came through; `job`: a background job the operator runs (tax invoices after a month ends). */
export type AuditChannel = 'dashboard' | 'api' | 'cli' | 'job';

/** Who, through which door, from which client address: what every audited use case is told. */
export interface AuditContext {
  actor: AuditActor;
  channel: AuditChannel;
  clientAddress: string | null;
}

export const auditActions = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'password_changed',
  'second_factor_changed',
  'recovery_codes_regenerated',
  'invitation_created',
  'invitation_accepted',
  'invitation_revoked',
  'role_changed',
  'member_removed',
  'refund_created',
  'withdrawal_requested',
  'api_key_created',
  'api_key_rolled',
  'api_key_revoked',
  'webhook_created',
  'webhook_updated',
  'webhook_deleted',
  'webhook_secret_revealed',
  'webhook_secret_rotated',
  'webhook_test_sent',
  'delivery_retried',
  'test_payment_completed',
  'tax_invoice_issued',
  'till_created',
  'till_renamed',
  'till_closed',
  'till_display_url_rolled',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** One line of the audit log: written with the action it records, in the same transaction, and never changed. */
export interface AuditEntry {
  id: string;
  /** Null only for what belongs to no merchant (a failed sign-in for an unknown e-mail address). */
  merchantId: string | null;
  context: AuditContext;
  action: AuditAction;
  /** What the action was done to: a refund's, key's, webhook's or user's id. */
  subjectId: string | null;
  details: Record<string, string | number | boolean | null>;
  createdAt: Date;
}

/** The operator at the command line. */
export const operatorContext: AuditContext = { actor: { kind: 'operator' }, channel: 'cli', clientAddress: null };

/** How an entry names who did it: an e-mail address, `key …abcd`, or `operator`. */
export function actorLabel(actor: AuditActor): string {
  switch (actor.kind) {
    case 'user':
      return actor.email;
    case 'api_key':
      return actor.madeBy ? `key …${actor.last4} (made by ${actor.madeBy.email})` : `key …${actor.last4}`;
    case 'operator':
      return 'operator';
  }
}
