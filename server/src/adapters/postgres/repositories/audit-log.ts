import type { AuditAction, AuditActor, AuditChannel, AuditEntry } from '../../../domain/audit.js';
import type { AuditLog } from '../../../ports/repositories.js';
import { pageOf, whereCreatedWithin, type Db, type Insert } from './query.js';

interface AuditRow {
  id: string;
  merchant_id: string | null;
  actor_kind: AuditActor['kind'];
  actor_id: string | null;
  actor_label: string | null;
  actor_key_maker_id: string | null;
  actor_key_maker_label: string | null;
  channel: AuditChannel;
  client_address: string | null;
  action: AuditAction;
  subject_id: string | null;
  details: AuditEntry['details'] | string;
  created_at: Date;
}

function actorOf(row: AuditRow): AuditActor {
  switch (row.actor_kind) {
    case 'user':
      return { kind: 'user', userId: row.actor_id ?? '', email: row.actor_label ?? '' };
    case 'api_key': {
      const key = { kind: 'api_key' as const, keyId: row.actor_id ?? '', last4: row.actor_label ?? '' };
      return row.actor_key_maker_id === null ? key : { ...key, madeBy: { userId: row.actor_key_maker_id, email: row.actor_key_maker_label ?? '' } };
    }
    case 'operator':
      return { kind: 'operator' };
  }
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  merchantId: row.merchant_id,
  context: { actor: actorOf(row), channel: row.channel, clientAddress: row.client_address },
  action: row.action,
  subjectId: row.subject_id,
  details: typeof row.details === 'string' ? (JSON.parse(row.details) as AuditEntry['details']) : row.details,
  createdAt: row.created_at,
});

function toRow(entry: AuditEntry): AuditRow {
  const { actor } = entry.context;
  return {
    id: entry.id,
    merchant_id: entry.merchantId,
    actor_kind: actor.kind,
    actor_id: actor.kind === 'user' ? actor.userId : actor.kind === 'api_key' ? actor.keyId : null,
    actor_label: actor.kind === 'user' ? actor.email : actor.kind === 'api_key' ? actor.last4 : null,
    actor_key_maker_id: (actor.kind === 'api_key' && actor.madeBy?.userId) || null,
    actor_key_maker_label: (actor.kind === 'api_key' && actor.madeBy?.email) || null,
    channel: entry.context.channel,
    client_address: entry.context.clientAddress,
    action: entry.action,
    subject_id: entry.subjectId,
    details: JSON.stringify(entry.details),
    created_at: entry.createdAt,
  };
}

export const auditLog = (db: Db, insert: Insert): AuditLog => ({
  record: (entry) => insert('audit_entries', toRow(entry)),
  list: (merchantId, filter, page) =>
    pageOf(db, 'audit_entries', whereCreatedWithin(db('audit_entries').where({ merchant_id: merchantId }), filter), page, toEntry),
});
